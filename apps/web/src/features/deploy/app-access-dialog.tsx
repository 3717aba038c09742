import type {
  AppVisibility,
  UpdateApplicationRequest,
} from '@sprout/protocol/api/app-visibility.ts'
import type { Application } from '@sprout/protocol/api/applications.ts'
import { useId, useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Dialog } from '../../components/ui/dialog.tsx'
import { classNames } from '../../lib/class-names.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { AllowedEmailsEditor } from './allowed-emails-editor.tsx'

export type AppAccess = Pick<Application, 'visibility' | 'allowed_emails' | 'visibility_choices'>

export type AppAccessDialogProps = {
  open: boolean
  access: AppAccess
  /** Names the organization choice: 'Members of {organization}'. */
  organizationName: string
  /** Resolves once saved; rejects with the server's error, which the dialog shows. */
  onSave: (request: UpdateApplicationRequest) => Promise<unknown>
  onClose: () => void
}

export const APP_ACCESS_TITLE = 'Who can open it'

const choiceTexts: Record<AppVisibility, { label: string; description: string }> = {
  public: {
    label: 'Anyone with the link',
    description: 'Anyone on the internet can open the deployed app.',
  },
  organization: {
    label: 'Members of {organization}',
    description: 'Only members of this organization, signed in to Sprout.',
  },
  people: {
    label: 'Only people I list',
    description: 'Only these email addresses, signed in to Sprout.',
  },
}

/**
 * docs/product/builder.md "Who can open it": the choices the caller may set, and for 'people' the
 * list of addresses. The choices start from the app's on each open and survive a failed save.
 */
export function AppAccessDialog(props: AppAccessDialogProps) {
  return props.open ? <OpenAppAccessDialog {...props} /> : null
}

function OpenAppAccessDialog({ access, organizationName, onSave, onClose }: AppAccessDialogProps) {
  const groupName = useId()
  const [visibility, setVisibility] = useState(access.visibility)
  const [emails, setEmails] = useState<string[]>(access.allowed_emails)
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState<string>()
  const canSave = !saving && (visibility !== 'people' || emails.length > 0)

  const save = async () => {
    if (!canSave) return
    setSaving(true)
    setError(undefined)
    try {
      await onSave({ visibility, allowed_emails: visibility === 'people' ? emails : [] })
      onClose()
    } catch (failure) {
      setError(errorMessage(failure))
      setSaving(false)
    }
  }

  return (
    <Dialog
      open
      title={APP_ACCESS_TITLE}
      description="Who may open the deployed app at its Live address."
      onClose={saving ? undefined : onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button onClick={() => void save()} disabled={!canSave}>
            {saving ? 'Saving...' : 'Save'}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        <fieldset disabled={saving} className="flex flex-col gap-2">
          <legend className="sr-only">{APP_ACCESS_TITLE}</legend>
          {access.visibility_choices.map((choice) => (
            <VisibilityChoice
              key={choice}
              name={groupName}
              choice={choice}
              label={choiceTexts[choice].label.replace('{organization}', organizationName)}
              description={choiceTexts[choice].description}
              checked={visibility === choice}
              onSelect={() => setVisibility(choice)}
            />
          ))}
        </fieldset>
        {visibility === 'people' && (
          <AllowedEmailsEditor emails={emails} onChange={setEmails} disabled={saving} />
        )}
        {error && <Alert>{error}</Alert>}
      </div>
    </Dialog>
  )
}

type VisibilityChoiceProps = {
  name: string
  choice: AppVisibility
  label: string
  description: string
  checked: boolean
  onSelect: () => void
}

function VisibilityChoice({
  name,
  choice,
  label,
  description,
  checked,
  onSelect,
}: VisibilityChoiceProps) {
  const labelId = useId()
  const descriptionId = useId()
  return (
    <label
      className={classNames(
        'flex cursor-pointer gap-3 rounded-xl border px-4 py-3 transition-colors',
        checked ? 'border-accent-500 bg-accent-50/60' : 'border-zinc-200 hover:bg-zinc-50',
      )}
    >
      <input
        type="radio"
        name={name}
        value={choice}
        checked={checked}
        onChange={onSelect}
        aria-labelledby={labelId}
        aria-describedby={descriptionId}
        data-autofocus={checked || undefined}
        className="mt-0.5 accent-accent-600"
      />
      <span className="flex flex-col gap-0.5">
        <span id={labelId} className="text-sm font-medium text-zinc-900">
          {label}
        </span>
        <span id={descriptionId} className="text-xs text-zinc-500">
          {description}
        </span>
      </span>
    </label>
  )
}
