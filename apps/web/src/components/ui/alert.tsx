import type { ReactNode } from 'react'
import { classNames } from '../../lib/class-names.ts'

type AlertTone = 'error' | 'info' | 'success'

const toneClasses: Record<AlertTone, string> = {
  error: 'border-red-200 bg-red-50 text-red-700',
  info: 'border-sky-200 bg-sky-50 text-sky-800',
  success: 'border-accent-200 bg-accent-50 text-accent-700',
}

export function Alert({ tone = 'error', children }: { tone?: AlertTone; children: ReactNode }) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={classNames('rounded-xl border px-4 py-3 text-sm', toneClasses[tone])}
    >
      {children}
    </div>
  )
}
