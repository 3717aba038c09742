import {
  type CreateEvaluationRequest,
  evaluationMessages,
  type PromptTemplate,
} from '@sprout/protocol/api/evaluations.ts'
import {
  DEFAULT_EVALUATION_TEMPLATE,
  EVALUATION_CONCURRENCY_DEFAULT,
  EVALUATION_CONCURRENCY_MAX,
  EVALUATION_CONCURRENCY_MIN,
} from '@sprout/protocol/constants.ts'
import { type FormEvent, type ReactNode, useId, useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { Dialog } from '../../components/ui/dialog.tsx'
import { inputClasses } from '../../components/ui/text-field.tsx'
import { classNames } from '../../lib/class-names.ts'
/** The model that reads the conversations, and the control that picks it (the screen's to give). */
export type EvaluationJudge = { model: string | undefined; picker: ReactNode }

type ConfigureEvaluationDialogProps = {
  judge: EvaluationJudge | undefined
  conversationCount: number
  templates: PromptTemplate[] | undefined
  busy: boolean
  error: string | undefined
  onStart: (request: Omit<CreateEvaluationRequest, 'conversation_ids'>) => void
  onClose: () => void
}

/** What keeps the form from being sent, in the order the fields show. */
function formProblem(mode: 'template' | 'custom', customPrompt: string, limit: string) {
  const concurrentLimit = Number(limit)
  if (
    !Number.isInteger(concurrentLimit) ||
    concurrentLimit < EVALUATION_CONCURRENCY_MIN ||
    concurrentLimit > EVALUATION_CONCURRENCY_MAX
  ) {
    return evaluationMessages.concurrentLimit
  }
  if (mode === 'custom' && !customPrompt.trim()) return evaluationMessages.customPromptRequired
  return undefined
}

/**
 * docs/product/admin.md "Conversation Evaluations tab": a prompt template (default
 * eval_conversation_challenges) or a custom prompt, a concurrent limit from 1 to 10 (default 3),
 * and the model that reads the conversations.
 */
export function ConfigureEvaluationDialog({
  judge,
  conversationCount,
  templates,
  busy,
  error,
  onStart,
  onClose,
}: ConfigureEvaluationDialogProps) {
  const formId = useId()
  const fieldId = useId()
  const [mode, setMode] = useState<'template' | 'custom'>('template')
  const [template, setTemplate] = useState(DEFAULT_EVALUATION_TEMPLATE)
  const [customPrompt, setCustomPrompt] = useState('')
  const [limit, setLimit] = useState(String(EVALUATION_CONCURRENCY_DEFAULT))
  const [problem, setProblem] = useState<string | undefined>()
  const model = judge?.model
  // A problem is about the form as it was sent: any change takes it away.
  const chooseMode = (chosen: 'template' | 'custom') => {
    setProblem(undefined)
    setMode(chosen)
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found = formProblem(mode, customPrompt, limit)
    setProblem(found)
    if (found) return
    const prompt =
      mode === 'custom' ? { custom_prompt: customPrompt.trim() } : { prompt_template: template }
    onStart({ ...prompt, concurrent_limit: Number(limit), ...(model ? { model } : {}) })
  }

  const described = templates?.find((candidate) => candidate.name === template)?.description
  return (
    <Dialog
      open
      title="Configure Evaluation"
      description={`${conversationCount} conversation${conversationCount === 1 ? '' : 's'} selected.`}
      onClose={busy ? undefined : onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" form={formId} disabled={busy}>
            {busy ? 'Starting...' : 'Start Evaluation'}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <fieldset className="flex gap-4 text-sm text-zinc-700">
          <legend className="sr-only">Prompt</legend>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="prompt-mode"
              checked={mode === 'template'}
              onChange={() => chooseMode('template')}
            />
            Template
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="prompt-mode"
              checked={mode === 'custom'}
              onChange={() => chooseMode('custom')}
            />
            Custom prompt
          </label>
        </fieldset>
        {mode === 'template' ? (
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${fieldId}-template`} className="text-sm font-medium text-zinc-700">
              Prompt template
            </label>
            <select
              id={`${fieldId}-template`}
              className={inputClasses}
              value={template}
              onChange={(event) => setTemplate(event.target.value)}
            >
              {(templates?.length ? templates : [{ name: template, description: '' }]).map(
                (candidate) => (
                  <option key={candidate.name} value={candidate.name}>
                    {candidate.name}
                  </option>
                ),
              )}
            </select>
            {described && <p className="text-xs text-zinc-500">{described}</p>}
          </div>
        ) : (
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${fieldId}-custom`} className="text-sm font-medium text-zinc-700">
              Custom prompt
            </label>
            <textarea
              id={`${fieldId}-custom`}
              rows={5}
              className={classNames(inputClasses, 'h-auto py-2')}
              value={customPrompt}
              onChange={(event) => {
                setProblem(undefined)
                setCustomPrompt(event.target.value)
              }}
            />
          </div>
        )}
        <div className="flex flex-wrap items-end gap-4">
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${fieldId}-limit`} className="text-sm font-medium text-zinc-700">
              Concurrent limit
            </label>
            <input
              id={`${fieldId}-limit`}
              type="number"
              min={EVALUATION_CONCURRENCY_MIN}
              max={EVALUATION_CONCURRENCY_MAX}
              className={classNames(inputClasses, 'w-24')}
              value={limit}
              onChange={(event) => {
                setProblem(undefined)
                setLimit(event.target.value)
              }}
            />
          </div>
          <div className="flex flex-col gap-1.5 text-sm font-medium text-zinc-700">
            <span>Model</span>
            {judge?.picker}
          </div>
        </div>
        {(problem ?? error) && (
          <p role="alert" className="text-sm text-red-600">
            {problem ?? error}
          </p>
        )}
      </form>
    </Dialog>
  )
}
