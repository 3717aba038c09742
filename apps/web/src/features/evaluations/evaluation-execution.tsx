import type { EvaluationItem } from '@sprout/protocol/api/evaluations.ts'
import { EVALUATION_CONCURRENCY_DEFAULT } from '@sprout/protocol/constants.ts'
import { Link } from '@tanstack/react-router'
import { MessageText } from '../../components/message-text.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { buttonClasses } from '../../components/ui/button.tsx'
import { CenteredSpinner } from '../../components/ui/spinner.tsx'
import { useNow } from '../../hooks/use-now.ts'
import { EvaluationProgressBar } from './evaluation-progress-bar.tsx'
import { rawResultsUrl } from './evaluations-api.ts'
import { ItemStatusIcon } from './item-status-icon.tsx'
import { useEvaluationRun } from './use-evaluation-run.ts'

/** docs/product/admin.md "Evaluation execution": one evaluation's progress, item by item. */
export function EvaluationExecution({ evaluationId }: { evaluationId: string }) {
  const { status: run, startError } = useEvaluationRun(evaluationId)
  return (
    <section aria-labelledby="evaluation-execution-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="evaluation-execution-heading" className="text-lg font-semibold text-zinc-900">
          Evaluation Execution
        </h2>
        <div className="flex gap-2">
          {run.data?.status === 'completed' && (
            <a
              href={rawResultsUrl(evaluationId)}
              target="_blank"
              rel="noreferrer"
              className={buttonClasses('secondary', 'sm')}
            >
              View Full Results
            </a>
          )}
          <Link to="/admin/evals" className={buttonClasses('secondary', 'sm')}>
            Back to Evaluations
          </Link>
        </div>
      </div>
      {run.isPending ? (
        <CenteredSpinner label="Loading evaluation..." />
      ) : run.isError ? (
        <Alert>{run.error.message}</Alert>
      ) : (
        <>
          {startError && <Alert>Failed to start the evaluation: {startError}</Alert>}
          <dl className="grid gap-3 rounded-2xl border border-zinc-200 bg-white p-4 text-sm shadow-sm sm:grid-cols-4">
            <Field label="ID" value={run.data.id} mono />
            <Field label="Status" value={run.data.status} />
            <Field label="Template" value={run.data.prompt_template ?? 'Custom'} />
            {/* Shown as the default whatever was asked (docs/product/admin.md). */}
            <Field label="Concurrency" value={String(EVALUATION_CONCURRENCY_DEFAULT)} />
          </dl>
          <EvaluationProgressBar
            completed={run.data.completed_count}
            total={run.data.conversation_count}
          />
          <ul aria-label="Evaluation items" className="flex flex-col gap-3">
            {run.data.items.map((item) => (
              <ExecutionItem key={item.id} item={item} />
            ))}
          </ul>
        </>
      )}
    </section>
  )
}

function Field({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd
        data-testid={`evaluation-${label.toLowerCase()}`}
        className={mono ? 'truncate font-mono text-[13px] text-zinc-900' : 'text-zinc-900'}
      >
        {value}
      </dd>
    </div>
  )
}

function ExecutionItem({ item }: { item: EvaluationItem }) {
  const title = item.conversation_title || 'Untitled Conversation'
  return (
    <li
      aria-label={title}
      data-status={item.status}
      className="rounded-2xl border border-zinc-200 bg-white p-4 shadow-sm"
    >
      <div className="flex items-start gap-3">
        <ItemStatusIcon status={item.status} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <p className="font-medium text-zinc-900">{title}</p>
            <p className="text-xs tabular-nums text-zinc-500" data-testid="evaluation-item-time">
              {item.status === 'in_progress' && item.started_at && (
                <Elapsed startedAt={item.started_at} />
              )}
              {item.status === 'complete' && item.processing_time_ms !== null && (
                <span>{(item.processing_time_ms / 1000).toFixed(1)}s</span>
              )}
            </p>
          </div>
          <p className="text-xs text-zinc-500">
            {[item.org_name, item.app_slug].filter(Boolean).join(' / ')}
          </p>
          {item.status === 'failed' && item.error && (
            <p className="mt-2 text-sm text-red-600">Failed: {item.error}</p>
          )}
          {item.summary && (
            <div className="mt-2">
              <MessageText text={item.summary} variant="agent" />
            </div>
          )}
        </div>
      </div>
    </li>
  )
}

function Elapsed({ startedAt }: { startedAt: string }) {
  const now = useNow(1000)
  const seconds = Math.max(0, Math.floor((now.getTime() - Date.parse(startedAt)) / 1000))
  return <span>{seconds}s</span>
}
