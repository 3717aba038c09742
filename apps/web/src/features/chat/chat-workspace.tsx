import type { PreviewSelection } from '@sprout/protocol/api/preview-selections.ts'
import type { Model } from '@sprout/protocol/models.ts'
import { useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react'
import { CenteredSpinner } from '../../components/ui/spinner.tsx'
import type { ConversationSummary } from './chat-api.ts'
import { ChatPanel } from './chat-panel.tsx'
import { ConversationList } from './conversation-list.tsx'
import { modelImagesRefusal } from './images/model-images-refusal.ts'
import { NewConversationHint } from './new-conversation-hint.tsx'
import type { RenderRunFooter } from './transcript-groups.tsx'
import { useBuilderChat } from './use-builder-chat.ts'
import { conversationsQueryKey, useConversations } from './use-conversations.ts'
import { useOpenNewestConversation } from './use-open-newest-conversation.ts'
import { useRefreshOnRunEnd } from './use-refresh-on-run-end.ts'
import { useSecretRequestRenderer } from './use-secret-request-renderer.tsx'

export type ModelPickerProps = { value: string; onChange: (modelId: string) => void }

export type ChatWorkspaceProps = {
  applicationId: string
  /** The model the application was created with; the chat's picker starts there. */
  initialModel: string
  /** The models offered, to tell whether the chosen one reads images. */
  models?: readonly Model[]
  /** The model picker under the input; the route passes the models feature's selector in. */
  renderModelPicker?: (picker: ModelPickerProps) => ReactNode
  /** Called when an agent run ends (it may have changed the app's files). */
  onRunFinished?: () => void
  /** Called when the open conversation's run starts or ends (the Code tab is read-only meanwhile). */
  onRunningChange?: (running: boolean) => void
  /**
   * Receives the function that sends a message with the chat's model, for senders outside the
   * chat (the builder's error list).
   */
  sendRef?: { current: ((text: string) => void) | undefined }
  /** Receives the function that adds an element picked in the preview to the draft. */
  selectRef?: { current: ((selection: PreviewSelection) => void) | undefined }
  /** After each run's last block (the route passes the versions feature's link in). */
  renderRunFooter?: RenderRunFooter
}

/**
 * The builder's conversation list (left) and chat (centre), as siblings inside the builder's
 * flex row. Opens the newest conversation; 'New Conversation' starts from an empty chat.
 */
export function ChatWorkspace({
  applicationId,
  initialModel,
  models,
  renderModelPicker,
  onRunFinished,
  onRunningChange,
  sendRef,
  selectRef,
  renderRunFooter,
}: ChatWorkspaceProps) {
  const queryClient = useQueryClient()
  const conversations = useConversations(applicationId)
  const [model, setModel] = useState(initialModel)
  const refreshConversations = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: conversationsQueryKey(applicationId) })
  }, [queryClient, applicationId])
  const chat = useBuilderChat({ applicationId, onMessageSent: refreshConversations })
  const { select, conversationId } = chat
  useOpenNewestConversation({
    conversationId,
    conversations: conversations.data,
    isError: conversations.isError,
    select,
    setModel,
  })
  useRefreshOnRunEnd(chat.state.isRunning, refreshConversations, onRunFinished)
  const isRunning = chat.state.isRunning
  useEffect(() => onRunningChange?.(isRunning), [isRunning, onRunningChange])

  // Stable for the memoised transcript; the latest send and model are read when a secret is set.
  const latest = useRef({ send: chat.send, model })
  latest.current = { send: chat.send, model }
  if (sendRef) sendRef.current = (text) => latest.current.send(text, latest.current.model)
  if (selectRef) selectRef.current = chat.selections.add
  const renderSecretRequest = useSecretRequestRenderer(applicationId, latest)

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
        onSend={(text, images) => chat.send(text, model, images, chat.selections.items)}
        attachments={chat.attachments}
        selections={chat.selections}
        imagesRefusal={modelImagesRefusal(models, model)}
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
        renderRunFooter={renderRunFooter}
      />
    </>
  )
}
