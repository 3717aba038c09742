import { parseErrorReports } from '@sprout/protocol/tool-formats/error-reports.ts'
import { ScrollBlock } from '../../../components/ui/scroll-block.tsx'
import { classNames } from '../../../lib/class-names.ts'
import { OutputBlock } from './output-block.tsx'
import { inputString, toolOutputText } from './tool-output-text.ts'

/** error_reports_list: each error group with when it was seen, where, and its stack. */
export function ErrorReportsList({ output }: { output: unknown }) {
  const text = toolOutputText(output)
  const reports = parseErrorReports(text)
  if (reports.length === 0) return <OutputBlock text={text || 'No errors'} />
  return (
    <ul className="flex flex-col gap-2 text-xs">
      {reports.map((report) => (
        <li key={report.groupId} className="rounded-lg border border-zinc-200 bg-white p-2">
          <p className="font-medium text-red-700">{report.error}</p>
          <p className="text-zinc-500">
            {[report.url, report.timeSince && `seen ${report.timeSince}`, report.groupId]
              .filter(Boolean)
              .join(' · ')}
          </p>
          {report.stacktrace.length > 0 && (
            <ScrollBlock
              label="Stack trace"
              className="mt-1 overflow-x-auto font-mono text-[11px] text-zinc-600"
            >
              {report.stacktrace.join('\n')}
            </ScrollBlock>
          )}
        </li>
      ))}
    </ul>
  )
}

const actionClasses: Record<string, string> = {
  resolve: 'bg-emerald-100 text-emerald-800',
  suppress: 'bg-orange-100 text-orange-800',
  update: 'bg-zinc-100 text-zinc-700',
}

/** error_reports_update: the action (resolve green, suppress orange), the group and comment. */
export function ErrorReportUpdate({ input, output }: { input: unknown; output: unknown }) {
  const action = inputString(input, 'action') ?? 'update'
  const comment = inputString(input, 'comment')
  const text = toolOutputText(output)
  return (
    <div className="flex flex-col gap-1 text-xs">
      <p className="flex items-center gap-2">
        <span
          className={classNames(
            'rounded px-1.5 py-0.5 font-medium',
            actionClasses[action] ?? actionClasses.update,
          )}
        >
          {action}
        </span>
        <span className="font-mono text-zinc-600">{inputString(input, 'group_id')}</span>
      </p>
      {comment && <p className="text-zinc-600">{comment}</p>}
      {text !== '' && <OutputBlock text={text} />}
    </div>
  )
}
