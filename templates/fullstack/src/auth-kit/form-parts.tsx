/** The pieces the auth kit's forms share: labelled fields, the button and the message. */
import type { ComponentProps, ReactNode } from 'react'

export function Field({ label, ...input }: { label: string } & ComponentProps<'input'>) {
  return (
    <label className="flex flex-col gap-2">
      <span className="text-sm font-medium">{label}</span>
      <input
        required
        {...input}
        className="rounded-lg border border-stone-300 bg-white px-3 py-2 dark:border-stone-700 dark:bg-stone-900"
      />
    </label>
  )
}

export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <button
      type="submit"
      disabled={busy}
      className="rounded-lg bg-emerald-600 px-4 py-2 font-medium text-white shadow-sm transition hover:bg-emerald-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600 disabled:opacity-50"
    >
      {children}
    </button>
  )
}

/** Shown under the button; a problem is announced to screen readers as an alert. */
export function FormMessage({ message }: { message: FormNote | null }) {
  if (!message) return null
  return (
    <p
      role={message.problem ? 'alert' : 'status'}
      className={
        message.problem
          ? 'text-sm text-red-700 dark:text-red-400'
          : 'text-sm text-stone-700 dark:text-stone-300'
      }
    >
      {message.text}
    </p>
  )
}

export type FormNote = { text: string; problem: boolean }

export const formClassName = 'flex max-w-xl flex-col gap-3'
