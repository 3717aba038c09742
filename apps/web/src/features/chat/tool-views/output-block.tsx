import { ScrollBlock } from '../../../components/ui/scroll-block.tsx'
import { classNames } from '../../../lib/class-names.ts'

/** Monospaced tool output, scrollable when long (and then by a keyboard too). */
export function OutputBlock({
  text,
  label = 'Output',
  className,
}: {
  text: string
  label?: string
  className?: string
}) {
  return (
    <ScrollBlock
      label={label}
      className={classNames(
        'max-h-80 overflow-auto rounded-lg bg-zinc-900 px-3 py-2 font-mono text-xs leading-5 whitespace-pre-wrap break-all text-zinc-100',
        className,
      )}
    >
      {text}
    </ScrollBlock>
  )
}

export function OutputLabel({ children }: { children: string }) {
  return <p className="text-xs font-medium text-zinc-500">{children}</p>
}
