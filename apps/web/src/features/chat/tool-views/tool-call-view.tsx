import type { Block } from '@sprout/protocol/stream/blocks-state.ts'
import { summarizeToolCall } from '@sprout/protocol/tool-formats/tool-summary.ts'
import { memo, type ReactNode, useId, useState } from 'react'
import { RunChecksView } from '../../../components/checks/run-checks-view.tsx'
import { ChevronIcon } from '../../../components/ui/icons.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { classNames } from '../../../lib/class-names.ts'
import { AddRandomResult } from './add-random-result.tsx'
import { BrowserView } from './browser-view.tsx'
import { DefaultToolView } from './default-tool-view.tsx'
import { DiceResult } from './dice-result.tsx'
import { EditDiff } from './edit-diff.tsx'
import { ErrorReportsList, ErrorReportUpdate } from './error-reports-view.tsx'
import { FileToolResult } from './file-tool-result.tsx'
import { IntegrationGuideView } from './integration-guide-view.tsx'
import { OutputBlock } from './output-block.tsx'
import { ServerLogsView } from './server-logs-view.tsx'
import { SHELL_RUNNING_TEXT, ShellResult } from './shell-result.tsx'
import { readTaskList } from './task-list.ts'
import { TodosView } from './todos-view.tsx'
import { ToolError } from './tool-error.tsx'
import { toolOutputText } from './tool-output-text.ts'
import { WebSearchResults } from './web-search-results.tsx'

// Lists and guides are what the user wants to see; other results open on demand.
const openByDefault = new Set(['todos', 'integration_guide', 'run_checks', 'browser'])
// Views with something to show from the input alone, before the output arrives.
const viewsOfInput = new Set([
  'todos',
  'integration_guide',
  'write_file',
  'str_replace',
  'shell_exec',
])
const monospaceSummaries = new Set(['shell_exec'])

/**
 * docs/product/tool-calls.md "Agent tool-call displays": a one-line summary that expands to the
 * result.
 */
export const ToolCallView = memo(function ToolCallView({ block }: { block: Block }) {
  const toolName = block.toolName ?? ''
  const [expanded, setExpanded] = useState(() => openByDefault.has(toolName))
  const bodyId = useId()
  const isKnownView = toolName in resultViews
  const showErrorApart = block.toolIsError && isKnownView
  return (
    <div data-testid="tool-call" data-tool={toolName} className="flex flex-col gap-1">
      <button
        type="button"
        aria-expanded={expanded}
        aria-controls={bodyId}
        onClick={() => setExpanded((open) => !open)}
        className="group flex min-w-0 items-center gap-1.5 rounded-md py-0.5 text-left text-sm text-zinc-700 hover:text-zinc-950"
      >
        <ChevronIcon
          className={classNames(
            'size-3.5 shrink-0 text-zinc-400 transition-transform',
            expanded && 'rotate-90',
          )}
        />
        <span
          className={classNames(
            'min-w-0 truncate',
            monospaceSummaries.has(toolName) && 'font-mono text-xs',
            block.toolIsError && 'text-red-700',
          )}
        >
          {summaryText(block)}
        </span>
        {block.isStreaming && toolName === 'shell_exec' && (
          <span className="shrink-0 font-mono text-xs text-zinc-500">{SHELL_RUNNING_TEXT}</span>
        )}
        {block.isStreaming && toolName !== 'shell_exec' && (
          <Spinner className="size-3 shrink-0 border" />
        )}
      </button>
      {showErrorApart && (
        <div className="ml-5">
          <ToolError text={toolOutputText(block.toolOutput)} />
        </div>
      )}
      {expanded && (
        <div id={bodyId} className="ml-5 min-w-0">
          <ToolResult block={block} isKnownView={isKnownView} />
        </div>
      )}
    </div>
  )
})

function summaryText(block: Block): string {
  const toolName = block.toolName ?? ''
  const summary = summarizeToolCall(toolName, block.toolInput)
  if (toolName !== 'todos') return summary
  const list = readTaskList(block.toolInput, block.toolOutput)
  const done = list.tasks.filter((task) => task.status !== 'incomplete').length
  const title = list.title ? `: ${list.title}` : ''
  return `${summary}${title} (${done}/${list.tasks.length})`
}

type ResultView = (block: Block) => ReactNode

const fileResult: ResultView = (block) => (
  <FileToolResult
    toolName={block.toolName ?? ''}
    input={block.toolInput}
    output={block.toolOutput}
  />
)

const resultViews: Record<string, ResultView> = {
  write_file: fileResult,
  view_file: fileResult,
  delete_file: fileResult,
  list_files: fileResult,
  search: fileResult,
  str_replace: (block) => <EditDiff input={block.toolInput} output={block.toolOutput} />,
  shell_exec: (block) => <ShellResult output={block.toolOutput} isStreaming={block.isStreaming} />,
  todos: (block) => <TodosView list={readTaskList(block.toolInput, block.toolOutput)} />,
  web_search: (block) => <WebSearchResults output={block.toolOutput} />,
  server_logs: (block) => <ServerLogsView output={block.toolOutput} />,
  roll_dice: (block) => <DiceResult input={block.toolInput} output={block.toolOutput} />,
  add_random: (block) => <AddRandomResult input={block.toolInput} output={block.toolOutput} />,
  get_time: (block) => <OutputBlock text={toolOutputText(block.toolOutput)} />,
  error_reports_list: (block) => <ErrorReportsList output={block.toolOutput} />,
  error_reports_update: (block) => (
    <ErrorReportUpdate input={block.toolInput} output={block.toolOutput} />
  ),
  run_checks: (block) => <RunChecksView output={block.toolOutput} />,
  browser: (block) => <BrowserView input={block.toolInput} output={block.toolOutput} />,
  integration_guide: (block) => (
    <IntegrationGuideView
      input={block.toolInput}
      output={block.toolOutput}
      isStreaming={block.isStreaming}
    />
  ),
}

function ToolResult({ block, isKnownView }: { block: Block; isKnownView: boolean }) {
  if (!isKnownView) {
    return (
      <DefaultToolView
        toolName={block.toolName ?? ''}
        input={block.toolInput}
        output={block.toolOutput}
        isError={block.toolIsError}
      />
    )
  }
  // The error shows above, whether or not the result is open; a failed call has no result.
  if (block.toolIsError) return null
  const toolName = block.toolName ?? ''
  if (block.isStreaming && block.toolOutput === undefined && !viewsOfInput.has(toolName)) {
    return <Spinner className="size-3" />
  }
  return resultViews[toolName]?.(block)
}
