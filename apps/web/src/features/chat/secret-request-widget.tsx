import { type FormEvent, type KeyboardEvent, useId, useState } from 'react'
import { SecretValueInput } from '../../components/ui/secret-value-input.tsx'
import { classNames } from '../../lib/class-names.ts'
import { storeSecret, vaultErrorMessage } from '../../lib/vault-api.ts'

const VALUE_REQUIRED = 'Value is required'
const STORE_FAILED = 'Failed to store secret'

type SecretRequestWidgetProps = {
  applicationId: string
  secretKey: string
  /** The vault already holds this key (e.g. after a reload): shown as saved from the start. */
  alreadySaved?: boolean
  /** After a successful save: the chat tells the agent the secret is set. */
  onSaved: (key: string) => void
}

type WidgetState = { kind: 'idle'; error?: string } | { kind: 'saving' } | { kind: 'saved' }

/**
 * docs/product/builder.md "Secret-entry widget": the agent asked for a secret; the user types its
 * value, which goes to the vault and never back into the conversation.
 */
export function SecretRequestWidget({
  applicationId,
  secretKey,
  alreadySaved = false,
  onSaved,
}: SecretRequestWidgetProps) {
  const [value, setValue] = useState('')
  const [state, setState] = useState<WidgetState>({ kind: 'idle' })
  const inputId = useId()
  const errorId = useId()

  if (state.kind === 'saved' || (alreadySaved && state.kind === 'idle' && !state.error)) {
    return (
      <p
        data-testid="secret-saved"
        className="flex items-center gap-2 rounded-lg border border-zinc-200 bg-white px-3 py-2 font-mono text-xs"
      >
        <span className="text-zinc-800">{secretKey}</span>
        <span aria-hidden="true" className="tracking-widest text-zinc-400">
          ••••••••
        </span>
        <span className="ml-auto font-sans font-medium text-emerald-600">Saved</span>
      </p>
    )
  }

  const saving = state.kind === 'saving'
  const error = state.kind === 'idle' ? state.error : undefined
  const submit = async (event: FormEvent | KeyboardEvent) => {
    event.preventDefault()
    if (saving) return
    if (value.trim() === '') {
      setState({ kind: 'idle', error: VALUE_REQUIRED })
      return
    }
    setState({ kind: 'saving' })
    try {
      await storeSecret(applicationId, secretKey, value)
      setValue('')
      setState({ kind: 'saved' })
      onSaved(secretKey)
    } catch (failure) {
      setState({ kind: 'idle', error: vaultErrorMessage(failure, STORE_FAILED) })
    }
  }

  return (
    <form
      onSubmit={submit}
      aria-label={`Secret ${secretKey}`}
      className="flex flex-col gap-2 rounded-xl border border-zinc-200 bg-white p-3 not-italic"
    >
      <label htmlFor={inputId} className="text-xs font-medium text-zinc-500">
        Secret requested by the agent
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          value={secretKey}
          readOnly
          aria-label="Key"
          className="h-8 w-44 rounded-lg border border-zinc-200 bg-zinc-50 px-2 font-mono text-xs text-zinc-700"
        />
        <SecretValueInput
          id={inputId}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          onKeyDown={(event) => {
            // Enter submits even while Set is disabled, so an empty value is explained.
            if (event.key === 'Enter') void submit(event)
          }}
          disabled={saving}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? errorId : undefined}
        />
        <button
          type="submit"
          disabled={saving || value.trim() === ''}
          className={classNames(
            'h-8 rounded-lg px-3 text-sm font-medium',
            'bg-zinc-900 text-white hover:bg-zinc-700 disabled:bg-zinc-300',
          )}
        >
          {saving ? 'Saving...' : 'Set'}
        </button>
      </div>
      {error && (
        <p id={errorId} className="text-xs text-red-600">
          {error}
        </p>
      )}
    </form>
  )
}
