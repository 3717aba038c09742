import { useId } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Card } from '../../components/ui/card.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { classNames } from '../../lib/class-names.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { useCheckSettings } from './use-check-settings.ts'

// docs/product/checks.md "Setting", word for word.
export const CHECK_SETTING_TEXTS = {
  title: 'Checks',
  label: 'Repair automatically after a failed check',
  explanation:
    'When the check after a run finds problems, the agent gets one more turn to fix them, then checks again. Whatever that check finds is shown, never repaired automatically again.',
  installationOff: 'Turned off for this installation (AUTO_REPAIR=off)',
  readOnly: 'Only owners and admins can change this.',
} as const

type CheckSettingsSectionProps = {
  organizationId: string
  /** Owners and admins; the others see the setting read-only. */
  canEdit: boolean
}

/** The organization's switch for the automatic repair turn (docs/product/checks.md "Setting"). */
export function CheckSettingsSection({ organizationId, canEdit }: CheckSettingsSectionProps) {
  const { settings, update } = useCheckSettings(organizationId)
  const labelId = useId()
  const explanationId = useId()
  const data = settings.data
  const installationAllows = data?.installationAllows !== false
  const checked = Boolean(data?.autoRepair) && installationAllows
  const disabled = !data || !installationAllows || !canEdit || update.isPending
  const note = !installationAllows
    ? CHECK_SETTING_TEXTS.installationOff
    : !canEdit
      ? CHECK_SETTING_TEXTS.readOnly
      : undefined
  return (
    <section aria-labelledby={`${labelId}-title`} data-testid="check-settings">
      <h2 id={`${labelId}-title`} className="mb-3 text-base font-semibold text-zinc-900">
        {CHECK_SETTING_TEXTS.title}
      </h2>
      <Card className="flex flex-col gap-3 p-5">
        {settings.isPending && <Spinner />}
        {settings.isError && <Alert>{settings.error.message}</Alert>}
        {data && (
          <div className="flex items-start justify-between gap-4">
            <div className="min-w-0">
              <p id={labelId} className="text-sm font-medium text-zinc-900">
                {CHECK_SETTING_TEXTS.label}
              </p>
              <p id={explanationId} className="mt-1 text-sm text-zinc-500">
                {CHECK_SETTING_TEXTS.explanation}
              </p>
              {note && <p className="mt-2 text-sm text-amber-800">{note}</p>}
            </div>
            <button
              type="button"
              role="switch"
              aria-checked={checked}
              aria-labelledby={labelId}
              aria-describedby={explanationId}
              disabled={disabled}
              onClick={() => update.mutate(!data.autoRepair)}
              className={classNames(
                'relative mt-0.5 inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600 disabled:cursor-not-allowed disabled:opacity-50',
                checked ? 'bg-accent-600' : 'bg-zinc-300',
              )}
            >
              <span
                aria-hidden="true"
                className={classNames(
                  'inline-block size-5 rounded-full bg-white shadow transition-transform',
                  checked ? 'translate-x-5.5' : 'translate-x-0.5',
                )}
              />
            </button>
          </div>
        )}
        {update.isError && <Alert>{errorMessage(update.error)}</Alert>}
      </Card>
    </section>
  )
}
