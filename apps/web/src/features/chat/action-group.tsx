import type { Block } from '@sprout/protocol/stream/blocks-state.ts'
import { MessageText } from '../../components/message-text.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { ToolCallView } from './tool-views/tool-call-view.tsx'

/** A run of the agent's reasoning and tool calls, shown together; a spinner while it streams. */
export function ActionGroup({ blocks, isStreaming }: { blocks: Block[]; isStreaming: boolean }) {
  return (
    <div
      data-testid="action-group"
      aria-busy={isStreaming}
      className="flex flex-col gap-1.5 rounded-xl border border-zinc-200 bg-zinc-50/80 px-3 py-2"
    >
      {blocks.map((block) =>
        block.type === 'reasoning' ? (
          <div key={block.id} data-testid="reasoning">
            <MessageText text={block.reasoningContent} variant="thinking" />
          </div>
        ) : (
          <ToolCallView key={block.id} block={block} />
        ),
      )}
      {isStreaming && (
        <div className="flex items-center gap-2 py-0.5 text-xs text-zinc-500">
          <Spinner className="size-3 border" />
          <span className="sr-only">Working</span>
        </div>
      )}
    </div>
  )
}
