import { PATH_SHORTEN_LENGTH, SHELL_DEFAULT_TIMEOUT_SECONDS } from '../constants.ts'
import { summarizeBrowserCall } from './browser.ts'
import { integrationGuideTitle } from './integration-guide.ts'
import { diffLines } from './line-diff.ts'
import { formatDiceNotation } from './roll-dice.ts'

/** Paths longer than ~40 characters keep their tail, from a folder boundary when there is one. */
export function shortenPath(path: string, maximumLength: number = PATH_SHORTEN_LENGTH): string {
  if (path.length <= maximumLength) return path
  const tail = path.slice(path.length - (maximumLength - 3))
  const slash = tail.indexOf('/')
  return `...${slash > 0 ? tail.slice(slash) : tail}`
}

/** The one-line summary of a tool call (docs/product/tool-calls.md "Agent tool-call displays"). */
export function summarizeToolCall(toolName: string, input: unknown): string {
  const path = shortenPath(readString(input, 'path') ?? '')
  switch (toolName) {
    case 'write_file':
      return `Write: ${path}`
    case 'view_file':
      return `Read: ${path}`
    case 'delete_file':
      return `Delete: ${path}`
    case 'list_files':
      return `List: ${path || '.'}`
    case 'str_replace':
      return `Edit: ${path}${editCounts(input)}`
    case 'shell_exec':
      return summarizeShell(input)
    case 'search':
      return summarizeSearch(input, path)
    case 'server_logs':
      return 'Server logs'
    case 'web_search':
      return `Web search: ${readString(input, 'query') ?? ''}`
    case 'todos':
      return 'Tasks'
    case 'add_random':
      return `Add random: ${readNumber(input, 'num') ?? ''}`
    case 'get_time':
      return 'Get time'
    case 'roll_dice':
      return `Roll ${formatDiceNotation({ count: readNumber(input, 'count'), sides: readNumber(input, 'sides') })}`
    case 'error_reports_list':
      return 'List errors'
    case 'error_reports_update':
      return summarizeErrorReportUpdate(input)
    case 'integration_guide':
      return integrationGuideTitle(readString(input, 'integration') ?? '').trim()
    case 'run_checks':
      return 'Run checks'
    case 'browser':
      return summarizeBrowserCall(input)
    default:
      return toolName
  }
}

function editCounts(input: unknown): string {
  const oldText = readString(input, 'old_str')
  const newText = readString(input, 'new_str')
  if (oldText === undefined || newText === undefined) return ''
  const diff = diffLines(oldText, newText)
  return ` (+${diff.added} -${diff.removed})`
}

function summarizeShell(input: unknown): string {
  const timeout = readNumber(input, 'timeout') ?? SHELL_DEFAULT_TIMEOUT_SECONDS
  const [firstLine = '', ...otherLines] = (readString(input, 'command') ?? '').trim().split('\n')
  return `$ (${timeout}s) ${firstLine}${otherLines.length > 0 ? ' ...' : ''}`
}

function summarizeSearch(input: unknown, path: string): string {
  const pattern = readString(input, 'pattern') ?? ''
  const fileType = readString(input, 'file_type')?.replace(/^\*?\./, '')
  return `Search: ${pattern}${path ? ` in ${path}` : ''}${fileType ? ` (*.${fileType})` : ''}`
}

const errorReportVerbs: Record<string, string> = {
  resolve: 'Resolve',
  suppress: 'Suppress',
  update: 'Update',
}

function summarizeErrorReportUpdate(input: unknown): string {
  const verb = errorReportVerbs[readString(input, 'action') ?? 'update'] ?? 'Update'
  return `${verb} error: ${readString(input, 'group_id') ?? ''}`.trim()
}

function readField(input: unknown, key: string): unknown {
  return typeof input === 'object' && input !== null
    ? (input as Record<string, unknown>)[key]
    : undefined
}

function readString(input: unknown, key: string): string | undefined {
  const value = readField(input, key)
  return typeof value === 'string' ? value : undefined
}

function readNumber(input: unknown, key: string): number | undefined {
  const value = readField(input, key)
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
    return Number(value)
  }
  return undefined
}
