import { type InputHTMLAttributes, useState } from 'react'

type SecretValueInputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'className' | 'autoComplete' | 'placeholder'
>

/** A secret's value: masked, with a Show/Hide toggle (the vault modal and the chat's widget). */
export function SecretValueInput(props: SecretValueInputProps) {
  const [visible, setVisible] = useState(false)
  return (
    <div className="relative min-w-40 flex-1">
      <input
        {...props}
        type={visible ? 'text' : 'password'}
        autoComplete="off"
        placeholder="Value"
        className="h-8 w-full rounded-lg border border-zinc-300 bg-white px-2 pr-14 font-mono text-xs disabled:bg-zinc-50"
      />
      <button
        type="button"
        onClick={() => setVisible((shown) => !shown)}
        disabled={props.disabled}
        className="absolute inset-y-0 right-1 px-2 text-xs text-zinc-500 hover:text-zinc-900"
      >
        {visible ? 'Hide' : 'Show'}
      </button>
    </div>
  )
}
