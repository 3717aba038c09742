import type { PreviewSelection } from '@sprout/protocol/api/preview-selections.ts'
import { useQueryClient } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { type ComponentProps, type ReactNode, useEffect, useRef, useState } from 'react'
import { PreviewActions } from '../app/builder-preview-actions.tsx'
import { PageContainer } from '../components/layout/page-container.tsx'
import { PanePanel, type PaneTab, PaneTabs } from '../components/layout/pane-tabs.tsx'
import { Alert } from '../components/ui/alert.tsx'
import { CenteredSpinner } from '../components/ui/spinner.tsx'
import { ApplicationNotFound } from '../features/applications/application-not-found.tsx'
import { useApplication } from '../features/applications/use-application.ts'
import { useEditorReady } from '../features/applications/use-editor-ready.ts'
import { ChatWorkspace } from '../features/chat/chat-workspace.tsx'
import { BuilderCheckContexts } from '../features/checks/builder-check-contexts.tsx'
import { CodeTab } from '../features/code/code-tab.tsx'
import { type CodeFileRequest, useCodeFileRequest } from '../features/code/use-code-file-request.ts'
import { BuilderErrorList } from '../features/error-monitoring/builder-error-list.tsx'
import { applicationErrorsQueryKey } from '../features/error-monitoring/use-application-errors.ts'
import { ModelSelector } from '../features/models/model-selector.tsx'
import { useModels } from '../features/models/use-models.ts'
import { useOrganization } from '../features/organizations/use-organization.ts'
import { PreviewPane } from '../features/preview/preview-pane.tsx'
import { HistoryLayer } from '../features/versions/history-layer.tsx'
import { type HistoryPane, useHistoryPane } from '../features/versions/use-history-pane.tsx'
import { useShowApplicationName } from '../hooks/use-application-name.ts'
import { PHONE_MEDIA_QUERY, useMediaQuery } from '../hooks/use-media-query.ts'
import { ApiError } from '../lib/api-error.ts'
import { classNames } from '../lib/class-names.ts'

export const Route = createFileRoute('/_authenticated/_organization/applications/$id/edit')({
  component: BuilderPage,
})

type BuilderPane = 'chat' | 'preview' | 'code'
const builderPanes: readonly PaneTab<BuilderPane>[] = [
  { id: 'chat', label: 'Chat' },
  { id: 'preview', label: 'Preview' },
  { id: 'code', label: 'Code' },
]
/** The right pane's tabs (docs/product/versions.md "Code"); on a phone they are builder tabs. */
type RightView = 'preview' | 'code'
const rightViews: readonly PaneTab<RightView>[] = [
  { id: 'preview', label: 'Preview' },
  { id: 'code', label: 'Code' },
]

/**
 * docs/product/builder.md: one full-height row under the navbar — the chat workspace (conversation
 * list and chat) on the left and in the centre, the preview pane on the right; History takes the
 * chat's place. On a phone the chat and the preview are tabs (docs/product/builder.md "Phones").
 */
function BuilderPage() {
  const { id } = Route.useParams()
  const organization = useOrganization()
  const queryClient = useQueryClient()
  const application = useApplication(organization.organizationId, id)
  const readiness = useEditorReady(id, application.isSuccess)
  const models = useModels()
  const [previewReloads, setPreviewReloads] = useState(0)
  const isPhone = useMediaQuery(PHONE_MEDIA_QUERY)
  const [pane, setPane] = useState<BuilderPane>('chat')
  const agent = useAgentInputs()
  const [agentRunning, setAgentRunning] = useState(false)
  // The error list under the preview is open: the pane is wide enough to read a stack.
  const [errorsOpen, setErrorsOpen] = useState(false)
  const history = useHistoryPane(id, () => setPane('preview'))
  const code = useCodeFileRequest(() => setPane('code'))
  useShowApplicationName(application.data?.name)

  if (application.isPending) return <CenteredSpinner label="Loading application..." />
  if (application.isError) return <ApplicationLoadError error={application.error} />

  const { data } = application
  const reloadPreview = () => setPreviewReloads((count) => count + 1)
  return (
    <BuilderFrame applicationId={id} openFile={code.openFile}>
      {isPhone && (
        <PaneTabs label="Builder" tabs={builderPanes} selected={pane} onSelect={setPane} />
      )}
      <div className="flex min-h-0 flex-1">
        <PanePanel
          id="chat"
          tabbed={isPhone}
          selected={pane === 'chat'}
          className="relative flex min-h-0 min-w-0 flex-1"
        >
          <HistoryLayer pane={history} onRestored={reloadPreview} covers={!isPhone}>
            <ChatWorkspace
              applicationId={data.id}
              initialModel={data.model}
              models={models.data}
              onRunFinished={() => {
                setPreviewReloads((count) => count + 1)
                // The agent may have resolved errors.
                void queryClient.invalidateQueries({ queryKey: applicationErrorsQueryKey(data.id) })
                history.refresh()
              }}
              renderRunFooter={history.renderRunFooter}
              onRunningChange={setAgentRunning}
              {...agent.workspaceRefs}
              renderModelPicker={(picker) => (
                <ModelSelector
                  models={models.data ?? []}
                  value={picker.value}
                  onChange={picker.onChange}
                  disabled={!models.data}
                  align="start"
                  placement="above"
                />
              )}
            />
          </HistoryLayer>
        </PanePanel>
        <RightPane
          pane={pane}
          agentRunning={agentRunning}
          history={history}
          codeRequest={code.request}
          onRestored={reloadPreview}
        >
          <PreviewPane
            fill={isPhone}
            wide={errorsOpen}
            previewUrl={data.preview_url}
            reloadSignal={previewReloads}
            prodUrl={data.prod_url}
            readiness={readiness.data}
            onSelectElement={(selection) => agent.select.current?.(selection)}
            actions={
              <PreviewActions
                applicationId={data.id}
                deployed={Boolean(data.prod_url)}
                access={data}
                history={history}
                agentRunning={agentRunning}
              />
            }
            footer={
              <BuilderErrorList
                applicationId={data.id}
                previewOrigin={originOf(data.preview_url)}
                onExpandedChange={setErrorsOpen}
                onAskAgent={(text) => {
                  agent.send.current?.(text)
                  setPane('chat')
                }}
              />
            }
          />
        </RightPane>
      </div>
    </BuilderFrame>
  )
}

/**
 * What reaches the chat from outside it: a message the error list sends, and an element picked in
 * the preview's Select mode, which becomes a chip in the input (docs/product/builder.md).
 */
function useAgentInputs() {
  const send = useRef<((text: string) => void) | undefined>(undefined)
  const select = useRef<((selection: PreviewSelection) => void) | undefined>(undefined)
  return { send, select, workspaceRefs: { sendRef: send, selectRef: select } }
}

/** The builder's frame, where a check's problem opens its file in the Code tab. */
function BuilderFrame({ children, ...checks }: ComponentProps<typeof BuilderCheckContexts>) {
  return (
    <BuilderCheckContexts {...checks}>
      {/* The navbar is 3.5rem and its 1px border; the builder takes the rest of the window. */}
      <div className="flex h-[calc(100dvh-3.5rem-1px)] min-h-0 flex-col overflow-hidden bg-white">
        {children}
      </div>
    </BuilderCheckContexts>
  )
}

type RightPaneProps = {
  pane: BuilderPane
  agentRunning: boolean
  history: HistoryPane
  /** A file to show in the Code tab (a check's problem): the tab comes forward. */
  codeRequest: CodeFileRequest | undefined
  onRestored: () => void
  /** The preview pane. */
  children: ReactNode
}

/**
 * The builder's right pane: 'Preview' and 'Code' tabs (docs/product/versions.md "Code"). On a
 * phone the builder's tabs pick the view, and History takes the Preview tab's place. The Code tab mounts
 * when first shown and then stays (hidden), so its unsaved text lives on.
 */
function RightPane({
  pane,
  agentRunning,
  history,
  codeRequest,
  onRestored,
  children,
}: RightPaneProps) {
  const isPhone = useMediaQuery(PHONE_MEDIA_QUERY)
  const [desktopView, setDesktopView] = useState<RightView>('preview')
  useEffect(() => {
    if (codeRequest) setDesktopView('code')
  }, [codeRequest])
  const view: RightView = isPhone ? (pane === 'code' ? 'code' : 'preview') : desktopView
  const codeShown = useRef(false)
  if (view === 'code') codeShown.current = true
  return (
    <PanePanel
      id="preview"
      tabbed={isPhone}
      selected={pane !== 'chat'}
      className={classNames(
        'flex min-h-0 flex-col',
        (isPhone || view === 'code') && 'min-w-0 flex-1',
      )}
    >
      {!isPhone && (
        <PaneTabs
          label="Preview and code"
          tabs={rightViews}
          selected={desktopView}
          onSelect={setDesktopView}
        />
      )}
      <div className="flex min-h-0 flex-1">
        <PanePanel
          id="preview"
          tabbed={!isPhone}
          selected={view === 'preview'}
          className={classNames(
            'flex min-h-0',
            isPhone && 'min-w-0 flex-1',
            isPhone && view === 'code' && 'hidden',
          )}
        >
          <HistoryLayer pane={history} onRestored={onRestored} covers={isPhone}>
            {children}
          </HistoryLayer>
        </PanePanel>
        {codeShown.current && (
          <PanePanel
            id="code"
            tabbed
            selected={view === 'code'}
            className="flex min-h-0 min-w-0 flex-1 border-l border-zinc-200"
          >
            <CodeTab
              applicationId={history.applicationId}
              agentRunning={agentRunning}
              fileRequest={codeRequest}
            />
          </PanePanel>
        )}
      </div>
    </PanePanel>
  )
}

/** The preview's origin, which its error reporter posts from (docs/product/error-monitoring.md). */
function originOf(url: string | undefined | null): string | undefined {
  return url && URL.canParse(url) ? new URL(url).origin : undefined
}

function ApplicationLoadError({ error }: { error: Error }) {
  if (error instanceof ApiError && error.status === 404) return <ApplicationNotFound />
  return (
    <PageContainer>
      <Alert>{error.message}</Alert>
    </PageContainer>
  )
}
