import {
  type AdminIntegration,
  checkIntegrationForm,
  type IntegrationDefinitionInput,
  type IntegrationFormField,
  type IntegrationFormProblems,
  type IntegrationPreset,
  type IntegrationPresetId,
} from '@sprout/protocol/api/integrations.ts'
import { type ReactNode, useId, useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { Dialog } from '../../components/ui/dialog.tsx'
import { inputClasses } from '../../components/ui/text-field.tsx'
import { classNames } from '../../lib/class-names.ts'

/** The form's fields as typed: scopes comma-separated, parameters as JSON text. */
export type IntegrationFormText = Record<IntegrationFormField, string> & {
  preset: IntegrationPresetId | null
}

export const emptyIntegrationForm: IntegrationFormText = {
  service_name: '',
  display_name: '',
  client_id: '',
  client_secret: '',
  auth_url: '',
  token_url: '',
  revoke_url: '',
  scopes: '',
  additional_params: '{}',
  preset: null,
}

type IntegrationFormDialogProps = {
  /** The definition being edited; undefined adds one. */
  editing?: AdminIntegration
  presets: IntegrationPreset[]
  saving: boolean
  onSave: (definition: IntegrationDefinitionInput) => void
  onClose: () => void
}

function valuesOf(integration: AdminIntegration): IntegrationFormText {
  return {
    service_name: integration.service_name,
    display_name: integration.display_name,
    client_id: integration.client_id,
    client_secret: '',
    auth_url: integration.auth_url,
    token_url: integration.token_url,
    revoke_url: integration.revoke_url ?? '',
    scopes: integration.scopes.join(', '),
    additional_params: JSON.stringify(integration.additional_params, null, 2),
    preset: integration.preset,
  }
}

/** Fills what a preset knows; the admin still types the client id and secret. */
export function applyPreset(
  values: IntegrationFormText,
  preset: IntegrationPreset,
  mode: 'create' | 'edit',
): IntegrationFormText {
  return {
    ...values,
    service_name: mode === 'create' ? preset.service_name : values.service_name,
    display_name: preset.display_name,
    auth_url: preset.auth_url,
    token_url: preset.token_url,
    revoke_url: preset.revoke_url ?? '',
    scopes: preset.scopes.join(', '),
    additional_params: JSON.stringify(preset.additional_params, null, 2),
    preset: preset.preset,
  }
}

/** docs/product/admin.md "Integrations tab": add or edit an integration definition. */
export function IntegrationFormDialog({
  editing,
  presets,
  saving,
  onSave,
  onClose,
}: IntegrationFormDialogProps) {
  const mode = editing ? 'edit' : 'create'
  const [values, setValues] = useState(editing ? valuesOf(editing) : emptyIntegrationForm)
  const [errors, setErrors] = useState<IntegrationFormProblems>({})

  const set = (field: IntegrationFormField) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }))
    setErrors((current) => ({ ...current, [field]: undefined }))
  }
  const submit = () => {
    const checked = checkIntegrationForm(values, mode)
    setErrors(checked.ok ? {} : checked.problems)
    if (checked.ok) onSave(checked.definition)
  }
  const field = (name: IntegrationFormField, label: string, extra: Partial<FieldProps> = {}) => (
    <Field
      label={label}
      value={values[name]}
      error={errors[name]}
      onChange={set(name)}
      {...extra}
    />
  )

  return (
    <Dialog
      open
      size="lg"
      title={editing ? 'Edit Integration' : 'Add Integration'}
      description="An OAuth app registered with the service; users connect it in Settings."
      onClose={saving ? undefined : onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" form="integration-form" disabled={saving}>
            {saving ? 'Saving...' : 'Save'}
          </Button>
        </>
      }
    >
      <form
        id="integration-form"
        noValidate
        className="flex max-h-[60vh] flex-col gap-3 overflow-y-auto pb-1"
        onSubmit={(event) => {
          event.preventDefault()
          submit()
        }}
      >
        {presets.length > 0 && (
          <label className="flex flex-col gap-1.5 text-sm font-medium text-zinc-700">
            Preset
            <select
              className={inputClasses}
              value={values.preset ?? ''}
              onChange={(event) => {
                const preset = presets.find((item) => item.preset === event.target.value)
                setValues((current) =>
                  preset ? applyPreset(current, preset, mode) : { ...current, preset: null },
                )
              }}
            >
              <option value="">Custom</option>
              {presets.map((preset) => (
                <option key={preset.preset} value={preset.preset}>
                  {preset.display_name}
                </option>
              ))}
            </select>
          </label>
        )}
        {field('service_name', 'Service Name', { disabled: Boolean(editing) })}
        {field('display_name', 'Display Name', { hint: 'Optional; the service name otherwise' })}
        {field('client_id', 'Client ID')}
        {field('client_secret', 'Client Secret', {
          type: 'password',
          hint: editing ? 'Leave blank to keep the current secret' : undefined,
        })}
        {field('auth_url', 'Auth URL', { type: 'url' })}
        {field('token_url', 'Token URL', { type: 'url' })}
        {field('revoke_url', 'Revoke URL', { type: 'url', hint: 'Optional' })}
        {field('scopes', 'Scopes', { hint: 'Comma-separated' })}
        {field('additional_params', 'Additional Parameters', {
          multiline: true,
          hint: 'A JSON object added to the consent URL',
        })}
      </form>
    </Dialog>
  )
}

type FieldProps = {
  label: string
  value: string
  error?: string
  hint?: ReactNode
  type?: string
  disabled?: boolean
  multiline?: boolean
  onChange: (value: string) => void
}

function Field({
  label,
  value,
  error,
  hint,
  type = 'text',
  disabled,
  multiline,
  onChange,
}: FieldProps) {
  const id = useId()
  const noteId = useId()
  const shared = {
    id,
    value,
    disabled,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error || hint ? noteId : undefined,
  }
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-zinc-700">
        {label}
      </label>
      {multiline ? (
        <textarea
          {...shared}
          rows={3}
          className={classNames(inputClasses, 'h-auto py-2 font-mono text-xs')}
          onChange={(event) => onChange(event.target.value)}
        />
      ) : (
        <input
          {...shared}
          type={type}
          autoComplete="off"
          className={classNames(inputClasses, error && 'border-red-300')}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {error ? (
        <p id={noteId} className="text-xs text-red-600">
          {error}
        </p>
      ) : (
        hint && (
          <p id={noteId} className="text-xs text-zinc-500">
            {hint}
          </p>
        )
      )}
    </div>
  )
}
