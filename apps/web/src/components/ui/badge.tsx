import type { ReactNode } from 'react'
import { classNames } from '../../lib/class-names.ts'

type BadgeTone = 'neutral' | 'accent'

export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: ReactNode }) {
  return (
    <span
      className={classNames(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium',
        tone === 'accent' ? 'bg-accent-50 text-accent-700' : 'bg-zinc-100 text-zinc-600',
      )}
    >
      {children}
    </span>
  )
}
