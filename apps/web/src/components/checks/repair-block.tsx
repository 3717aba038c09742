import type { Block } from '@sprout/protocol/stream/blocks-state.ts'
import { useId, useState } from 'react'
import { classNames } from '../../lib/class-names.ts'
import { ChevronIcon } from '../ui/icons.tsx'
import { ScrollBlock } from '../ui/scroll-block.tsx'

export const REPAIR_MESSAGE_TOGGLE = 'Message sent'

/**
 * The repair turn's start, in the agent's voice ('Fixing 2 type errors…'), never a user bubble;
 * a disclosure shows the problems it was given (docs/product/checks.md "One repair").
 */
export function RepairBlock({ block }: { block: Block }) {
  const [expanded, setExpanded] = useState(false)
  const messageId = useId()
  return (
    <div data-testid="repair-message" className="flex min-w-0 flex-col gap-1 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <p className="font-medium text-zinc-900">{block.content}</p>
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={messageId}
          onClick={() => setExpanded((shown) => !shown)}
          className="flex items-center gap-1 rounded-md text-xs text-zinc-500 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-accent-600"
        >
          <ChevronIcon
            className={classNames('size-3 transition-transform', expanded && 'rotate-90')}
          />
          {REPAIR_MESSAGE_TOGGLE}
        </button>
      </div>
      {expanded && (
        <ScrollBlock
          id={messageId}
          label={REPAIR_MESSAGE_TOGGLE}
          className="max-h-72 overflow-auto rounded-md bg-zinc-50 p-2 font-mono text-xs whitespace-pre-wrap text-zinc-700"
        >
          {block.reasoningContent}
        </ScrollBlock>
      )}
    </div>
  )
}
