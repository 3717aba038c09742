import { type FormEvent, type KeyboardEvent, type ReactNode, useId, useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { Dialog } from '../../components/ui/dialog.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { inputClasses } from '../../components/ui/text-field.tsx'
import { classNames } from '../../lib/class-names.ts'
import { useCreateApplication } from './use-create-application.ts'

export type CreateApplicationDialogProps = {
  open: boolean
  onClose: () => void
  /** After the application exists and its editor is ready: open the editor. */
  onCreated: (applicationId: string) => void
  /** The model chosen in `modelSelector`; creating waits until there is one. */
  model: string | undefined
  /** The model picker, passed in by the screen (features do not import each other). */
  modelSelector: ReactNode
  /** Prefills, e.g. when an exploration turns an idea into an application. */
  initialName?: string
  initialDescription?: string
}

/**
 * docs/product/applications.md "Create dialog", "Create application". The form starts afresh on
 * each open.
 */
export function CreateApplicationDialog(props: CreateApplicationDialogProps) {
  return props.open ? <OpenCreateApplicationDialog {...props} /> : null
}

function OpenCreateApplicationDialog({
  onClose,
  onCreated,
  model,
  modelSelector,
  initialName = '',
  initialDescription = '',
}: CreateApplicationDialogProps) {
  const formId = useId()
  const nameId = useId()
  const descriptionId = useId()
  const [name, setName] = useState(initialName)
  const [description, setDescription] = useState(initialDescription)
  const { create, progress, isCreating } = useCreateApplication()
  const canCreate = description.trim().length > 0 && model !== undefined && !isCreating

  const submit = async (event: FormEvent | KeyboardEvent) => {
    event.preventDefault()
    if (!canCreate || !model) return
    const outcome = await create({ name, description, model })
    if (outcome.status === 'created') onCreated(outcome.applicationId)
    // The alert has said what went wrong; the list now shows the application.
    if (outcome.status === 'listed') onClose()
  }

  const onDescriptionKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) void submit(event)
  }

  return (
    <Dialog
      open
      size="lg"
      title="Create Application"
      description="Describe your idea and pick a model. Sprout's agent builds it in a fresh dev box."
      onClose={isCreating ? undefined : onClose}
      footer={
        <>
          <div className="flex min-h-5 items-center sm:mr-auto" role="status" aria-live="polite">
            {progress && (
              <span className="flex items-center gap-2 text-sm text-zinc-600">
                <Spinner className="size-4" />
                {progress}
              </span>
            )}
          </div>
          <Button variant="secondary" onClick={onClose} disabled={isCreating}>
            Cancel
          </Button>
          <Button type="submit" form={formId} disabled={!canCreate}>
            {isCreating ? 'Creating...' : 'Create Application'}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={nameId} className="text-sm font-medium text-zinc-700">
            Name <span className="font-normal text-zinc-500">(optional)</span>
          </label>
          <input
            id={nameId}
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="My awesome app"
            maxLength={80}
            disabled={isCreating}
            autoComplete="off"
            className={inputClasses}
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={descriptionId} className="text-sm font-medium text-zinc-700">
            Description
          </label>
          <textarea
            id={descriptionId}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            onKeyDown={onDescriptionKeyDown}
            placeholder="Describe what you want to build..."
            rows={5}
            required
            disabled={isCreating}
            data-autofocus
            className={classNames(inputClasses, 'h-auto min-h-32 resize-y py-2.5 leading-relaxed')}
          />
        </div>
        <div className="flex items-center justify-between gap-3">
          <span className="text-sm font-medium text-zinc-700">Model</span>
          <div className={classNames(isCreating && 'pointer-events-none opacity-60')}>
            {modelSelector}
          </div>
        </div>
      </form>
    </Dialog>
  )
}
