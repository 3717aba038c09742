import { createFileRoute } from '@tanstack/react-router'
import { EvaluationsPanel } from '../features/evaluations/evaluations-panel.tsx'

export const Route = createFileRoute('/_authenticated/admin/evals/')({
  component: EvaluationsPanel,
})
