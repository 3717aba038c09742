import { formatConversationTime } from '@sprout/protocol/text/conversation-time.ts'
import { useState } from 'react'
import { PanelIcon, PlusIcon } from '../../components/ui/icons.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { PHONE_MEDIA_QUERY, useMediaQuery } from '../../hooks/use-media-query.ts'
import { useNow } from '../../hooks/use-now.ts'
import { classNames } from '../../lib/class-names.ts'
import type { ConversationSummary } from './chat-api.ts'

type ConversationListProps = {
  conversations: ConversationSummary[] | undefined
  isLoading: boolean
  error: Error | null
  selectedId: string | null
  onSelect: (conversation: ConversationSummary) => void
  onNew: () => void
}

const openOnWideScreens = () =>
  typeof window.matchMedia !== 'function' || window.matchMedia('(min-width: 1024px)').matches

/** docs/product/builder.md "Conversation list": collapsible (w-12 closed, w-64 open). */
export function ConversationList({
  conversations,
  isLoading,
  error,
  selectedId,
  onSelect,
  onNew,
}: ConversationListProps) {
  const [open, setOpen] = useState(openOnWideScreens)
  const now = useNow(30_000)
  const isPhone = useMediaQuery(PHONE_MEDIA_QUERY)
  // On a phone the open list covers the chat, so a choice closes it.
  const closeOnPhone = () => {
    if (isPhone) setOpen(false)
  }
  return (
    <aside
      aria-label="Conversations"
      data-open={open}
      className={classNames(
        'flex min-h-0 shrink-0 flex-col border-r border-zinc-200 bg-white transition-[width]',
        open ? 'w-64' : 'w-12',
        // On a phone the open list lies over the chat instead of squeezing it.
        open && 'phone:absolute phone:inset-y-0 phone:left-0 phone:z-20 phone:shadow-xl',
      )}
    >
      <div className={classNames('flex items-center gap-1 p-2', !open && 'flex-col')}>
        <button
          type="button"
          onClick={() => setOpen((value) => !value)}
          aria-expanded={open}
          aria-label={open ? 'Collapse conversations' : 'Expand conversations'}
          className="flex size-8 shrink-0 items-center justify-center rounded-lg text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900"
        >
          <PanelIcon />
        </button>
        {open ? (
          <h2 className="flex-1 truncate text-sm font-semibold text-zinc-900">Conversations</h2>
        ) : (
          <button
            type="button"
            onClick={onNew}
            aria-label="New Conversation"
            title="New Conversation"
            className="flex size-8 items-center justify-center rounded-lg text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900"
          >
            <PlusIcon />
          </button>
        )}
      </div>
      {open && (
        <>
          <div className="px-2 pb-2">
            <button
              type="button"
              onClick={() => {
                closeOnPhone()
                onNew()
              }}
              className="flex h-8 w-full items-center justify-center gap-1.5 rounded-lg border border-zinc-200 bg-white text-sm font-medium text-zinc-800 shadow-sm hover:bg-zinc-50"
            >
              <PlusIcon className="size-3.5" />
              New Conversation
            </button>
          </div>
          <nav
            aria-label="Conversation history"
            className="min-h-0 flex-1 overflow-y-auto px-2 pb-2"
          >
            {isLoading && (
              <div className="flex justify-center py-6">
                <Spinner />
              </div>
            )}
            {error && <p className="px-2 py-4 text-xs text-red-600">{error.message}</p>}
            {conversations?.length === 0 && (
              <p className="px-2 py-6 text-center text-sm text-zinc-500">No conversations yet</p>
            )}
            <ul className="flex flex-col gap-0.5">
              {conversations?.map((conversation) => (
                <li key={conversation.id}>
                  <button
                    type="button"
                    onClick={() => {
                      closeOnPhone()
                      onSelect(conversation)
                    }}
                    aria-current={conversation.id === selectedId ? 'true' : undefined}
                    className={classNames(
                      'flex w-full flex-col rounded-lg px-2 py-1.5 text-left',
                      conversation.id === selectedId ? 'bg-zinc-100' : 'hover:bg-zinc-50',
                    )}
                  >
                    <span className="truncate text-sm text-zinc-800">
                      {conversation.title || 'Untitled Conversation'}
                    </span>
                    {/* zinc-600: zinc-500 falls below 4.5:1 on the chosen row's zinc-100 */}
                    <span className="text-xs text-zinc-600">
                      {formatConversationTime(
                        conversation.last_message_at ?? conversation.updated,
                        now,
                      )}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </nav>
        </>
      )}
    </aside>
  )
}
