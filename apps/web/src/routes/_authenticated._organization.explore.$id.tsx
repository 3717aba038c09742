import { createFileRoute } from '@tanstack/react-router'
import { ChatPanel } from '../features/chat/chat-panel.tsx'
import { modelImagesRefusal } from '../features/chat/images/model-images-refusal.ts'
import { ExplorationHeader } from '../features/explore/exploration-header.tsx'
import { ExplorationIntro } from '../features/explore/exploration-intro.tsx'
import { ExplorationNotFound } from '../features/explore/exploration-not-found.tsx'
import { useBuildIdea } from '../features/explore/use-build-idea.ts'
import { useExplorationChat } from '../features/explore/use-exploration-chat.ts'
import { ModelSelector } from '../features/models/model-selector.tsx'
import { useModels } from '../features/models/use-models.ts'
import { useSelectedModel } from '../features/models/use-selected-model.ts'

export const Route = createFileRoute('/_authenticated/_organization/explore/$id')({
  component: ExplorationPage,
})

/** docs/product/exploration.md: a streaming chat to shape an idea, then 'Build this'. */
function ExplorationPage() {
  const { id } = Route.useParams()
  const models = useModels()
  const [model, setModel] = useSelectedModel(models.data)
  const chat = useExplorationChat(id)
  const idea = useBuildIdea(id, chat.state.blocks)

  if (chat.notFound) return <ExplorationNotFound />
  return (
    <div className="flex h-[calc(100dvh-3.5rem-1px)] min-h-0 flex-col">
      <ExplorationHeader onBuild={idea.canBuild ? () => void idea.build() : undefined} />
      <ChatPanel
        label="Exploration chat"
        state={chat.state}
        draft={chat.draft}
        onDraftChange={chat.setDraft}
        onSend={(text, images) => {
          if (model) chat.send(text, model, images)
        }}
        attachments={chat.attachments}
        imagesRefusal={modelImagesRefusal(models.data, model)}
        onEscape={chat.interrupt}
        onInterrupt={chat.interrupt}
        onRetry={chat.retry}
        notice={chat.notice}
        placeholder="Tell me about your idea..."
        workingText="Thinking..."
        emptyState={<ExplorationIntro />}
        inputDisabled={!model}
        canQueue={false}
        modelPicker={
          <ModelSelector
            models={models.data ?? []}
            value={model}
            onChange={setModel}
            disabled={!models.data}
            align="start"
            placement="above"
          />
        }
      />
    </div>
  )
}
