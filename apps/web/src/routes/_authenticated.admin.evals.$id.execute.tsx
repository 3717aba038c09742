import { createFileRoute } from '@tanstack/react-router'
import { EvaluationExecution } from '../features/evaluations/evaluation-execution.tsx'

export const Route = createFileRoute('/_authenticated/admin/evals/$id/execute')({
  component: ExecutionRoute,
})

function ExecutionRoute() {
  const { id } = Route.useParams()
  return <EvaluationExecution evaluationId={id} />
}
