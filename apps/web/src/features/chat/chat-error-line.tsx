import type { Block } from '@sprout/protocol/stream/blocks-state.ts'
import { chatErrorText, RETRY_HINT } from '@sprout/protocol/tool-formats/error-text.ts'

/**
 * docs/product/error-texts.md "Chat error types": the last error, with '(click to retry)' when it can be
 * retried.
 */
export function ChatErrorLine({ error, onRetry }: { error: Block; onRetry?: () => void }) {
  const text = chatErrorText({ content: error.content, errorType: error.errorType })
  const className =
    'w-full rounded-xl border border-red-200 bg-red-50 px-3 py-2 text-left text-sm text-red-700'
  if (!onRetry) {
    return (
      <p role="alert" data-testid="chat-error" className={className}>
        {text}
      </p>
    )
  }
  return (
    <button
      type="button"
      data-testid="chat-error"
      onClick={onRetry}
      className={`${className} hover:bg-red-100`}
    >
      {text} <span className="text-red-500 underline underline-offset-2">{RETRY_HINT}</span>
    </button>
  )
}
