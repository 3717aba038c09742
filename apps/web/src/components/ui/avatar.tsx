import { classNames } from '../../lib/class-names.ts'
import { initials } from '../../lib/initials.ts'

type AvatarProps = { name: string; shape?: 'circle' | 'square'; className?: string }

export function Avatar({ name, shape = 'circle', className }: AvatarProps) {
  return (
    <span
      aria-hidden="true"
      className={classNames(
        'inline-flex size-8 shrink-0 items-center justify-center bg-gradient-to-br from-accent-500 to-teal-600 text-xs font-semibold text-white',
        shape === 'circle' ? 'rounded-full' : 'rounded-lg',
        className,
      )}
    >
      {initials(name)}
    </span>
  )
}
