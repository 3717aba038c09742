import { secretKeyProblem, secretValueProblem } from '@sprout/protocol/api/vault.ts'
import { type FormEvent, useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { SecretValueInput } from '../../components/ui/secret-value-input.tsx'
import { vaultErrorMessage } from '../../lib/vault-api.ts'
import { ADD_SECRET_FAILED } from './vault-errors.ts'

type AddSecretRowProps = {
  saving: boolean
  /** Resolves when stored; rejects with the server's error. */
  onSet: (key: string, value: string) => Promise<unknown>
  onCancel: () => void
}

const fieldClasses =
  'h-8 w-full rounded-lg border border-zinc-300 bg-white px-2 font-mono text-xs disabled:bg-zinc-50'

/** The modal's 'Add Secret' row: key and value (masked, with show/hide), Set and Cancel. */
export function AddSecretRow({ saving, onSet, onCancel }: AddSecretRowProps) {
  const [key, setKey] = useState('')
  const [value, setValue] = useState('')
  const [error, setError] = useState<string>()
  const complete = key.trim() !== '' && value.trim() !== ''

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (saving || !complete) return
    const problem = secretKeyProblem(key.trim()) ?? secretValueProblem(value)
    if (problem) {
      setError(problem)
      return
    }
    setError(undefined)
    try {
      await onSet(key.trim(), value)
    } catch (failure) {
      setError(vaultErrorMessage(failure, ADD_SECRET_FAILED))
    }
  }

  return (
    <form onSubmit={submit} aria-label="Add Secret" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <input
          aria-label="Secret key"
          placeholder="KEY_NAME"
          value={key}
          onChange={(event) => setKey(event.target.value)}
          disabled={saving}
          autoComplete="off"
          data-autofocus
          className={`${fieldClasses} w-44 flex-none`}
        />
        <SecretValueInput
          aria-label="Secret value"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          disabled={saving}
        />
        <Button type="submit" size="sm" disabled={saving || !complete}>
          {saving ? 'Setting...' : 'Set'}
        </Button>
        <Button variant="secondary" size="sm" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      )}
    </form>
  )
}
