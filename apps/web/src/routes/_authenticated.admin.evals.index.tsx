import { createFileRoute } from '@tanstack/react-router'
import { EvaluationsPanel } from '../features/evaluations/evaluations-panel.tsx'
import { ModelSelector } from '../features/models/model-selector.tsx'
import { useModels } from '../features/models/use-models.ts'
import { useSelectedModel } from '../features/models/use-selected-model.ts'

export const Route = createFileRoute('/_authenticated/admin/evals/')({
  component: EvaluationsScreen,
})

/** The evaluations tab, its judge picked with the product's model selector. */
function EvaluationsScreen() {
  const models = useModels()
  const [model, setModel] = useSelectedModel(models.data)
  const picker = (
    <ModelSelector models={models.data ?? []} value={model} onChange={setModel} align="start" />
  )
  return <EvaluationsPanel judge={{ model, picker }} />
}
