import type { AdminConversation } from '@sprout/protocol/api/evaluations.ts'

type ConversationTableProps = {
  conversations: AdminConversation[]
  selected: ReadonlySet<string>
  onToggle: (id: string) => void
  onToggleAll: (select: boolean) => void
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' })

/** Conversations of every organization, each with a select checkbox (docs/product/admin.md). */
export function ConversationTable({
  conversations,
  selected,
  onToggle,
  onToggleAll,
}: ConversationTableProps) {
  const allSelected =
    conversations.length > 0 && conversations.every((conversation) => selected.has(conversation.id))
  return (
    <div className="overflow-x-auto rounded-2xl border border-zinc-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-zinc-100 bg-zinc-50/60 text-xs text-zinc-500">
          <tr>
            <th scope="col" className="w-10 px-4 py-2.5">
              <input
                type="checkbox"
                aria-label="Select all conversations"
                checked={allSelected}
                onChange={(event) => onToggleAll(event.target.checked)}
              />
            </th>
            {['Title', 'Organization', 'App', 'Messages', 'Created'].map((column) => (
              <th key={column} scope="col" className="px-4 py-2.5 font-medium">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {conversations.map((conversation) => {
            const title = conversation.title || 'Untitled Conversation'
            return (
              <tr key={conversation.id} aria-label={title}>
                <td className="px-4 py-3">
                  <input
                    type="checkbox"
                    aria-label={`Select ${title}`}
                    checked={selected.has(conversation.id)}
                    onChange={() => onToggle(conversation.id)}
                  />
                </td>
                <td className="max-w-xs truncate px-4 py-3 font-medium text-zinc-900">{title}</td>
                <td className="px-4 py-3 text-zinc-600">{conversation.org.name}</td>
                <td className="px-4 py-3 text-zinc-600">{conversation.app?.name ?? '—'}</td>
                <td className="px-4 py-3 tabular-nums text-zinc-600">
                  {conversation.message_count}
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-zinc-500">
                  {dateFormat.format(new Date(conversation.created_at))}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      {conversations.length === 0 && (
        <p className="px-4 py-6 text-center text-sm text-zinc-500">No conversations yet</p>
      )}
    </div>
  )
}
