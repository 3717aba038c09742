import { ChatBubbleIcon } from '../../components/ui/icons.tsx'

/** The empty chat of a new conversation. */
export function NewConversationHint() {
  return (
    <div className="flex flex-col items-center gap-2 py-16 text-center">
      <div className="flex size-10 items-center justify-center rounded-xl bg-accent-50 text-accent-600">
        <ChatBubbleIcon className="size-5" />
      </div>
      <h2 className="text-base font-semibold text-zinc-900">Start a new conversation</h2>
      <p className="max-w-sm text-sm text-zinc-500">
        Ask the agent to add a feature, fix a bug or change the design. It edits the files and the
        preview updates as it works.
      </p>
    </div>
  )
}
