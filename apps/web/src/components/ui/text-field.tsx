import { type InputHTMLAttributes, useId } from 'react'
import { classNames } from '../../lib/class-names.ts'

export const inputClasses =
  'h-10 w-full rounded-xl border border-zinc-200 bg-white px-3 text-sm text-zinc-900 shadow-sm placeholder:text-zinc-400 focus:border-accent-500 focus:ring-4 focus:ring-accent-100 focus:outline-none disabled:bg-zinc-50'

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & { label: string }

export function TextField({ label, className, id, ...props }: TextFieldProps) {
  const generatedId = useId()
  const inputId = id ?? generatedId
  return (
    <div className={classNames('flex flex-col gap-1.5', className)}>
      <label htmlFor={inputId} className="text-sm font-medium text-zinc-700">
        {label}
      </label>
      <input id={inputId} className={inputClasses} {...props} />
    </div>
  )
}
