import type { EvaluationResult } from '@sprout/protocol/api/evaluations.ts'
import { MessageText } from '../../components/message-text.tsx'
import { Button } from '../../components/ui/button.tsx'
import { downloadText, resultsCsv, resultsJson } from './evaluation-export.ts'

type EvaluationResultsProps = {
  evaluationId: string
  results: EvaluationResult[]
  onNewEvaluation: () => void
}

/** The results list with Export CSV, Export JSON and New Evaluation (docs/product/admin.md). */
export function EvaluationResults({
  evaluationId,
  results,
  onNewEvaluation,
}: EvaluationResultsProps) {
  const fileName = `evaluation-${evaluationId}`
  return (
    <section aria-labelledby="evaluation-results-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="evaluation-results-heading" className="text-base font-semibold text-zinc-900">
          Results
        </h3>
        <div className="flex gap-2">
          <Button
            variant="secondary"
            size="sm"
            onClick={() => downloadText(`${fileName}.csv`, resultsCsv(results), 'text/csv')}
          >
            Export CSV
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onClick={() =>
              downloadText(`${fileName}.json`, resultsJson(results), 'application/json')
            }
          >
            Export JSON
          </Button>
          <Button size="sm" onClick={onNewEvaluation}>
            New Evaluation
          </Button>
        </div>
      </div>
      <ul aria-label="Evaluation results" className="flex flex-col gap-3">
        {results.map((result) => (
          <li
            key={result.conversation_id}
            className="rounded-2xl border border-zinc-200 bg-white p-4 shadow-sm"
          >
            <div className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
              <p className="font-medium text-zinc-900">
                {result.conversation_title || 'Untitled Conversation'}
              </p>
              <p className="text-xs text-zinc-500">
                {result.org_name ?? ''}
                {result.processing_time_ms !== null &&
                  ` · ${(result.processing_time_ms / 1000).toFixed(1)}s`}
              </p>
            </div>
            {result.summary ? (
              <MessageText text={result.summary} variant="agent" />
            ) : (
              <p className="text-sm text-zinc-500">No summary</p>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
