import { SECRET_CONFIRMATION_MODEL_ID } from '@sprout/protocol/constants.ts'
import { secretSetMessage } from '@sprout/protocol/text/secret-request.ts'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react'
import { CenteredSpinner } from '../../components/ui/spinner.tsx'
import { listSecretKeys, vaultQueryKey } from '../../lib/vault-api.ts'
import type { ConversationSummary } from './chat-api.ts'
import { ChatPanel } from './chat-panel.tsx'
import { ConversationList } from './conversation-list.tsx'
import { NewConversationHint } from './new-conversation-hint.tsx'
import { SecretRequestWidget } from './secret-request-widget.tsx'
import { useBuilderChat } from './use-builder-chat.ts'
import { conversationsQueryKey, useConversations } from './use-conversations.ts'

export type ModelPickerProps = { value: string; onChange: (modelId: string) => void }

export type ChatWorkspaceProps = {
  applicationId: string
  /** The model the application was created with; the chat's picker starts there. */
  initialModel: string
  /** The model picker under the input; the route passes the models feature's selector in. */
  renderModelPicker?: (picker: ModelPickerProps) => ReactNode
  /** Called when an agent run ends (it may have changed the app's files). */
  onRunFinished?: () => void
  /**
   * Receives the function that sends a message with the chat's model, for senders outside the
   * chat (the builder's error list).
   */
  sendRef?: { current: ((text: string) => void) | undefined }
}

/**
 * The builder's conversation list (left) and chat (centre), as siblings inside the builder's
 * flex row. Opens the newest conversation; 'New Conversation' starts from an empty chat.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one component wiring the chat's parts together
export function ChatWorkspace({
  applicationId,
  initialModel,
  renderModelPicker,
  onRunFinished,
  sendRef,
}: ChatWorkspaceProps) {
  const queryClient = useQueryClient()
  const conversations = useConversations(applicationId)
  const [model, setModel] = useState(initialModel)
  const refreshConversations = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: conversationsQueryKey(applicationId) })
  }, [queryClient, applicationId])
  const chat = useBuilderChat({ applicationId, onMessageSent: refreshConversations })
  const { select, conversationId } = chat

  // Until the user picks one, the newest conversation is shown (or a new one when there is none).
  useEffect(() => {
    if (conversationId !== undefined) return
    if (conversations.data) {
      const newest = conversations.data[0]
      if (newest?.active_model) setModel(newest.active_model)
      select(newest?.id ?? null)
    } else if (conversations.isError) select(null)
  }, [conversationId, conversations.data, conversations.isError, select])

  // A run that ends may have renamed the conversation or moved it to the top.
  const isRunning = chat.state.isRunning
  const wasRunning = useRef(false)
  const latestOnRunFinished = useRef(onRunFinished)
  latestOnRunFinished.current = onRunFinished
  useEffect(() => {
    if (!isRunning) refreshConversations()
    if (wasRunning.current && !isRunning) latestOnRunFinished.current?.()
    wasRunning.current = isRunning
  }, [isRunning, refreshConversations])

  // A request whose key the vault already holds shows as saved (after a reload, too).
  const vault = useQuery({
    queryKey: vaultQueryKey(applicationId),
    queryFn: () => listSecretKeys(applicationId),
  })
  const savedKeys = vault.data?.map((entry) => entry.key).join('\n') ?? ''

  // Stable for the memoised transcript; the latest send and model are read when a secret is set.
  const latest = useRef({ send: chat.send, model })
  latest.current = { send: chat.send, model }
  if (sendRef) sendRef.current = (text) => latest.current.send(text, latest.current.model)
  const renderSecretRequest = useCallback(
    (key: string) => (
      <SecretRequestWidget
        applicationId={applicationId}
        secretKey={key}
        alreadySaved={savedKeys.split('\n').includes(key)}
        onSaved={(savedKey) => {
          void queryClient.invalidateQueries({ queryKey: vaultQueryKey(applicationId) })
          latest.current.send(
            secretSetMessage(savedKey),
            SECRET_CONFIRMATION_MODEL_ID,
            latest.current.model,
          )
        }}
      />
    ),
    [applicationId, savedKeys, queryClient],
  )

  const openConversation = (conversation: ConversationSummary) => {
    if (conversation.id === conversationId) return
    if (conversation.active_model) setModel(conversation.active_model)
    select(conversation.id)
  }

  const isLoadingConversation =
    conversationId === undefined || (conversationId !== null && chat.state.lastSeq === null)

  return (
    <>
      <ConversationList
        conversations={conversations.data}
        isLoading={conversations.isPending}
        error={conversations.error}
        selectedId={conversationId ?? null}
        onSelect={openConversation}
        onNew={() => select(null)}
      />
      <ChatPanel
        state={chat.state}
        stagedMessages={chat.stagedMessages}
        draft={chat.draft}
        onDraftChange={chat.setDraft}
        onSend={(text) => chat.send(text, model)}
        onEscape={chat.pressEscape}
        onInterrupt={chat.interrupt}
        onRetry={chat.retry}
        notice={chat.notice}
        draftNote={chat.draftNote}
        placeholder="Ask the agent to build or change something..."
        workingText="Working..."
        emptyState={<NewConversationHint />}
        overlay={
          isLoadingConversation && chat.state.blocks.length === 0 ? (
            <div className="min-h-0 flex-1">
              <CenteredSpinner label="Loading conversation..." />
            </div>
          ) : undefined
        }
        modelPicker={renderModelPicker?.({ value: model, onChange: setModel })}
        renderSecretRequest={renderSecretRequest}
      />
    </>
  )
}
