import { classNames } from '../lib/class-names.ts'

export function SproutLogo({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 32 32"
      aria-hidden="true"
      className={classNames('size-7 shrink-0', className)}
      role="presentation"
    >
      <rect width="32" height="32" rx="8" className="fill-accent-600" />
      <path d="M16 26V15" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
      <path d="M16 16c0-4.5-3-7-8-7 0 4.5 3 7 8 7Z" fill="#fff" />
      <path d="M16 14c0-4 2.6-6.5 7.5-6.5 0 4-2.6 6.5-7.5 6.5Z" className="fill-accent-100" />
    </svg>
  )
}
