import { classNames } from '../../../lib/class-names.ts'

/** Monospaced tool output, scrollable when long. */
export function OutputBlock({ text, className }: { text: string; className?: string }) {
  return (
    <pre
      className={classNames(
        'max-h-80 overflow-auto rounded-lg bg-zinc-900 px-3 py-2 font-mono text-xs leading-5 whitespace-pre-wrap break-all text-zinc-100',
        className,
      )}
    >
      {text}
    </pre>
  )
}

export function OutputLabel({ children }: { children: string }) {
  return <p className="text-xs font-medium text-zinc-500">{children}</p>
}
