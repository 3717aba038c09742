import type { ErrorInstance } from '@sprout/protocol/api/error-monitoring.ts'
import { formatRelativeTime } from '@sprout/protocol/text/relative-time.ts'
import { useState } from 'react'
import { ChevronIcon } from '../../components/ui/icons.tsx'
import { ScrollBlock } from '../../components/ui/scroll-block.tsx'
import { classNames } from '../../lib/class-names.ts'

const blockClasses =
  'max-h-48 overflow-auto rounded-lg bg-zinc-950 px-3 py-2 font-mono text-[11px] leading-relaxed whitespace-pre text-zinc-100'

/** One occurrence of a group; it expands to its context, session and stack. */
export function OccurrenceItem({ occurrence, now }: { occurrence: ErrorInstance; now: Date }) {
  const [open, setOpen] = useState(false)
  const url = typeof occurrence.context.url === 'string' ? occurrence.context.url : undefined
  return (
    <li data-testid="error-occurrence" className="rounded-lg border border-zinc-200">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen((shown) => !shown)}
        className="flex w-full items-center gap-2 px-3 py-2 text-left text-xs text-zinc-700"
      >
        <ChevronIcon className={classNames('size-3 shrink-0 text-zinc-400', open && 'rotate-90')} />
        <span className="font-medium">{formatRelativeTime(occurrence.occurred_at, now)}</span>
        <span className="text-zinc-500">{occurrence.source}</span>
        {url && <span className="min-w-0 truncate text-zinc-500">{url}</span>}
      </button>
      {open && (
        <div className="flex flex-col gap-2 px-3 pb-3 text-xs">
          <Section title="Context" text={JSON.stringify(occurrence.context, null, 2)} />
          <Section title="Session" text={JSON.stringify(occurrence.session_data, null, 2)} />
          <Section title="Stack" text={occurrence.stack.join('\n') || '(no stack)'} />
        </div>
      )}
    </li>
  )
}

function Section({ title, text }: { title: string; text: string }) {
  return (
    <section aria-label={title}>
      <h4 className="mb-1 font-medium text-zinc-600">{title}</h4>
      <ScrollBlock label={title} className={blockClasses}>
        {text}
      </ScrollBlock>
    </section>
  )
}
