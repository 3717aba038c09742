import type { Block } from '@sprout/protocol/stream/blocks-state.ts'
import { prepareMessageText } from '@sprout/protocol/text/strip-markers.ts'
import type { ReactNode } from 'react'
import { MessageText } from '../../components/message-text.tsx'
import { MessageImages } from './images/message-images.tsx'
import { MessageSelections } from './selections/selection-chips.tsx'

type MessageBlockProps = {
  block: Block
  renderSecretRequest?: (key: string) => ReactNode
}

/**
 * A text block: the user's messages right-aligned in a bubble with their images under it, the
 * agent's as plain text.
 */
export function MessageBlock({ block, renderSecretRequest }: MessageBlockProps) {
  if (block.role === 'user') {
    // A compaction note is not the user's words: it shows as a line, not a bubble.
    if (prepareMessageText(block.content).kind === 'compaction') {
      return <MessageText text={block.content} variant="agent" />
    }
    return (
      <div data-testid="user-message" className="flex flex-col items-end gap-2">
        <div className="max-w-[85%] rounded-2xl rounded-br-md bg-zinc-100 px-4 py-2">
          <MessageText text={block.content} variant="user" />
        </div>
        {block.images && block.images.length > 0 && <MessageImages images={block.images} />}
        {block.selections && block.selections.length > 0 && (
          <MessageSelections selections={block.selections} />
        )}
      </div>
    )
  }
  return (
    <div data-testid="agent-message">
      <MessageText text={block.content} variant="agent" renderSecretRequest={renderSecretRequest} />
    </div>
  )
}
