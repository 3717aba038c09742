import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { CodeEditor } from './code-editor.tsx'
import { ConflictDialog } from './conflict-dialog.tsx'
import { FileTree } from './file-tree.tsx'
import type { CodeFileRequest } from './use-code-file-request.ts'
import { useFileRequests } from './use-file-requests.ts'
import { useOpenFile } from './use-open-file.ts'

// docs/product/versions.md "Code", word for word.
export const AGENT_WORKING_BANNER = 'The agent is working: editing is paused until it finishes.'
const FIRST_FILE = 'src/App.tsx'

type CodeTabProps = {
  applicationId: string
  /** A run of the builder's chat is active: the editor is read-only. */
  agentRunning: boolean
  /** After a Save (the History list has a version to come). */
  onSaved?: () => void
  /** Opens this file (a new `id` each time it is asked). */
  fileRequest?: CodeFileRequest
}

/**
 * The Code tab: the workspace's files and a CodeMirror editor (docs/product/versions.md "Code").
 * Save writes through the agent's own checked file path; the preview reloads by itself.
 */
export function CodeTab({ applicationId, agentRunning, onSaved, fileRequest }: CodeTabProps) {
  const queryClient = useQueryClient()
  const opened = useOpenFile(applicationId, () => onSaved?.())
  const { file, open, refresh } = opened
  const readOnly = agentRunning || file?.readOnly === true

  const reveal = useFileRequests(opened, fileRequest, FIRST_FILE)

  // A run started or ended: the open file may have changed, and may be edited again once the
  // server has closed the run (asked again every half second, for a minute at most).
  const wasRunning = useRef(agentRunning)
  const latestRefresh = useRef(refresh)
  latestRefresh.current = refresh
  useEffect(() => {
    if (wasRunning.current === agentRunning) return
    wasRunning.current = agentRunning
    if (agentRunning) {
      void latestRefresh.current()
      return
    }
    let cancelled = false
    void (async () => {
      for (let attempt = 0; attempt < 120 && !cancelled; attempt += 1) {
        if ((await latestRefresh.current()) !== true) break
        await new Promise((resolve) => setTimeout(resolve, 500))
      }
    })()
    void queryClient.invalidateQueries({ queryKey: ['applications', applicationId, 'files'] })
    return () => {
      cancelled = true
    }
  }, [agentRunning, applicationId, queryClient])

  const save = () => {
    if (!readOnly && opened.unsaved) void opened.save()
  }

  return (
    <section aria-label="Code" className="flex min-h-0 min-w-0 flex-1 flex-col bg-white">
      {readOnly && (
        <p
          role="status"
          className="border-b border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          {AGENT_WORKING_BANNER}
        </p>
      )}
      <div className="flex min-h-0 flex-1">
        <nav
          aria-label="Files"
          className="w-56 shrink-0 overflow-y-auto border-r border-zinc-200 bg-zinc-50/70"
        >
          <FileTree
            applicationId={applicationId}
            selectedPath={file?.path}
            unsavedPaths={opened.unsavedPaths}
            onOpen={(path) => void open(path)}
          />
        </nav>
        <div className="flex min-h-0 min-w-0 flex-1 flex-col">
          <div className="flex h-10 shrink-0 items-center gap-2 border-b border-zinc-200 px-3">
            <span className="min-w-0 flex-1 truncate font-mono text-xs text-zinc-700">
              {file?.path ?? 'No file open'}
              {opened.unsaved && (
                <span className="ml-1.5 text-zinc-500" title="Unsaved changes">
                  ●<span className="sr-only">Unsaved changes</span>
                </span>
              )}
            </span>
            {opened.busy && <Spinner className="size-4" />}
            <Button
              size="sm"
              onClick={save}
              disabled={!file || readOnly || !opened.unsaved || opened.busy !== undefined}
              title="Save (Ctrl+S)"
            >
              Save
            </Button>
          </div>
          {opened.error && (
            <div className="p-2">
              <Alert>{opened.error}</Alert>
            </div>
          )}
          <div className="min-h-0 flex-1">
            {file && (
              <CodeEditor
                path={file.path}
                initialText={opened.text}
                version={opened.version}
                readOnly={readOnly}
                onChange={opened.change}
                onSave={save}
                reveal={reveal}
              />
            )}
          </div>
        </div>
      </div>
      {opened.conflict && file && (
        <ConflictDialog
          path={file.path}
          busy={opened.busy !== undefined}
          onReload={() => void opened.reload()}
          onOverwrite={() => void opened.save(true)}
          onCancel={opened.dismissConflict}
        />
      )}
    </section>
  )
}
