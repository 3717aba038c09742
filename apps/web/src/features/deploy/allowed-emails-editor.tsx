import { ALLOWED_EMAILS_MAX } from '@sprout/protocol/api/app-visibility.ts'
import { type KeyboardEvent, useId, useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { CrossIcon } from '../../components/ui/icons.tsx'
import { inputClasses } from '../../components/ui/text-field.tsx'
import { ALLOWED_EMAILS_FULL, readAllowedEmail } from './allowed-email.ts'

type AllowedEmailsEditorProps = {
  emails: readonly string[]
  onChange: (emails: string[]) => void
  disabled: boolean
}

/** The addresses that may open the app: typed one at a time (Add or Enter), removed as chips. */
export function AllowedEmailsEditor({ emails, onChange, disabled }: AllowedEmailsEditorProps) {
  const inputId = useId()
  const problemId = useId()
  const [text, setText] = useState('')
  const [problem, setProblem] = useState<string>()
  const full = emails.length >= ALLOWED_EMAILS_MAX

  const add = () => {
    if (text.trim() === '') return
    const reading = readAllowedEmail(text, emails)
    if (reading.kind === 'problem') {
      setProblem(reading.problem)
      return
    }
    if (reading.kind === 'new') onChange([...emails, reading.email])
    setText('')
    setProblem(undefined)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return
    event.preventDefault()
    add()
  }

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={inputId} className="text-sm font-medium text-zinc-700">
        Email address
      </label>
      <div className="flex gap-2">
        <input
          id={inputId}
          type="email"
          placeholder="ada@example.com"
          autoComplete="off"
          value={text}
          onChange={(event) => {
            setText(event.target.value)
            setProblem(undefined)
          }}
          onKeyDown={onKeyDown}
          disabled={disabled || full}
          aria-invalid={problem !== undefined}
          aria-describedby={problem ? problemId : undefined}
          className={inputClasses}
        />
        <Button variant="secondary" onClick={add} disabled={disabled || full || text.trim() === ''}>
          Add
        </Button>
      </div>
      {problem && (
        <p id={problemId} role="alert" className="text-xs text-red-600">
          {problem}
        </p>
      )}
      {full && <p className="text-xs text-zinc-500">{ALLOWED_EMAILS_FULL}</p>}
      {emails.length === 0 ? (
        <p className="text-xs text-zinc-500">Add at least one address.</p>
      ) : (
        <ul aria-label="Allowed email addresses" className="flex flex-wrap gap-1.5">
          {emails.map((email) => (
            <li
              key={email}
              className="inline-flex h-7 items-center gap-1 rounded-full border border-zinc-200 bg-zinc-50 pr-1 pl-2.5 text-xs text-zinc-800"
            >
              {email}
              <button
                type="button"
                aria-label={`Remove ${email}`}
                title="Remove"
                disabled={disabled}
                onClick={() => onChange(emails.filter((listed) => listed !== email))}
                className="inline-flex size-5 items-center justify-center rounded-full text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900 disabled:cursor-not-allowed"
              >
                <CrossIcon className="size-3" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
