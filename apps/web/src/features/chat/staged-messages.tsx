import type { StagedMessage } from '@sprout/protocol/stream/blocks-state.ts'

/** Messages queued while the agent runs; the run takes them at its next step. */
export function StagedMessages({ messages }: { messages: readonly StagedMessage[] }) {
  if (messages.length === 0) return null
  return (
    <section aria-label="Queued messages" className="flex flex-col gap-1">
      <p className="text-xs font-medium text-zinc-500">Queued ({messages.length}) · Esc to edit</p>
      <ul className="flex flex-col gap-1">
        {messages.map((message) => (
          <li
            key={message.id}
            className="truncate rounded-lg border border-dashed border-zinc-300 bg-white px-3 py-1.5 text-sm text-zinc-600"
          >
            {message.text}
          </li>
        ))}
      </ul>
    </section>
  )
}
