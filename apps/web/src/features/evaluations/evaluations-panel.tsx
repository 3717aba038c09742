import { evaluationResults } from '@sprout/protocol/api/evaluations.ts'
import { useMutation, useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { ConfigureEvaluationDialog, type EvaluationJudge } from './configure-evaluation-dialog.tsx'
import { ConversationTable } from './conversation-table.tsx'
import { EvaluationProgressBar } from './evaluation-progress-bar.tsx'
import { EvaluationResults } from './evaluation-results.tsx'
import { createEvaluation, fetchPromptTemplates } from './evaluations-api.ts'
import { useAdminConversations } from './use-admin-conversations.ts'
import { useEvaluationRun } from './use-evaluation-run.ts'

/**
 * docs/product/admin.md "Conversation Evaluations tab": pick conversations, configure, start, watch
 * the progress, then read and export the results.
 */
export function EvaluationsPanel({ judge }: { judge?: EvaluationJudge }) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [configuring, setConfiguring] = useState(false)
  const [evaluationId, setEvaluationId] = useState<string | undefined>()
  const templates = useQuery({
    queryKey: ['admin', 'evaluation-prompts'],
    queryFn: fetchPromptTemplates,
    enabled: configuring,
    staleTime: 5 * 60_000,
  })
  const create = useMutation({
    mutationFn: createEvaluation,
    onSuccess: (id) => {
      setConfiguring(false)
      setEvaluationId(id)
    },
  })

  const reset = () => {
    setEvaluationId(undefined)
    setSelected(new Set())
    create.reset()
  }

  return (
    <section aria-labelledby="evaluations-heading" className="flex flex-col gap-4">
      <div>
        <h2 id="evaluations-heading" className="text-lg font-semibold text-zinc-900">
          Conversation Evaluations
        </h2>
        <p className="text-sm text-zinc-500">
          A model reads the selected conversations and sums up what went well or wrong.
        </p>
      </div>
      {evaluationId ? (
        <EvaluationRun evaluationId={evaluationId} onNewEvaluation={reset} />
      ) : (
        <ConversationPicker
          selected={selected}
          onSelect={setSelected}
          onEvaluate={() => setConfiguring(true)}
        />
      )}
      {configuring && (
        <ConfigureEvaluationDialog
          judge={judge}
          conversationCount={selected.size}
          templates={templates.data}
          busy={create.isPending}
          error={create.error?.message}
          onStart={(config) => create.mutate({ ...config, conversation_ids: [...selected] })}
          onClose={() => {
            setConfiguring(false)
            create.reset()
          }}
        />
      )}
    </section>
  )
}

function ConversationPicker({
  selected,
  onSelect,
  onEvaluate,
}: {
  selected: ReadonlySet<string>
  onSelect: (next: ReadonlySet<string>) => void
  onEvaluate: () => void
}) {
  const list = useAdminConversations()
  if (list.isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner className="size-6" />
      </div>
    )
  }
  if (list.isError) return <Alert>{list.error.message}</Alert>
  const toggle = (id: string) => {
    const next = new Set(selected)
    if (!next.delete(id)) next.add(id)
    onSelect(next)
  }
  return (
    <>
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm text-zinc-500">{selected.size} selected</p>
        <Button onClick={onEvaluate} disabled={selected.size === 0}>
          Evaluate
        </Button>
      </div>
      <ConversationTable
        conversations={list.conversations}
        selected={selected}
        onToggle={toggle}
        onToggleAll={(select) =>
          onSelect(select ? new Set(list.conversations.map((item) => item.id)) : new Set())
        }
      />
      {list.hasNextPage && (
        <div className="flex justify-center">
          <Button
            variant="secondary"
            onClick={() => list.fetchNextPage()}
            disabled={list.isFetchingNextPage}
          >
            {list.isFetchingNextPage ? 'Loading...' : 'Load More'}
          </Button>
        </div>
      )}
    </>
  )
}

function EvaluationRun({
  evaluationId,
  onNewEvaluation,
}: {
  evaluationId: string
  onNewEvaluation: () => void
}) {
  const { status: run, startError } = useEvaluationRun(evaluationId)
  if (run.isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner className="size-6" />
      </div>
    )
  }
  if (run.isError) return <Alert>{run.error.message}</Alert>
  const evaluation = run.data
  return (
    <div className="flex flex-col gap-4">
      {startError && (
        <div className="flex flex-col items-start gap-2">
          <Alert>Failed to start the evaluation: {startError}</Alert>
          <Button size="sm" onClick={onNewEvaluation}>
            New Evaluation
          </Button>
        </div>
      )}
      <div className="rounded-2xl border border-zinc-200 bg-white p-4 shadow-sm">
        <EvaluationProgressBar
          completed={evaluation.completed_count}
          total={evaluation.conversation_count}
        />
        <Link
          to="/admin/evals/$id/execute"
          params={{ id: evaluationId }}
          className="mt-2 inline-block text-xs text-accent-700 hover:underline"
        >
          Watch each conversation
        </Link>
      </div>
      {evaluation.status === 'failed' && <Alert>The evaluation failed.</Alert>}
      {evaluation.status === 'completed' || evaluation.status === 'failed' ? (
        <EvaluationResults
          evaluationId={evaluationId}
          results={evaluationResults(evaluation.items)}
          onNewEvaluation={onNewEvaluation}
        />
      ) : null}
    </div>
  )
}
