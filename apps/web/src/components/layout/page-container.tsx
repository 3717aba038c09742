import type { ReactNode } from 'react'
import { classNames } from '../../lib/class-names.ts'

export function PageContainer({ children, narrow }: { children: ReactNode; narrow?: boolean }) {
  return (
    <div
      className={classNames(
        'mx-auto w-full px-4 py-8 sm:px-6 sm:py-10',
        narrow ? 'max-w-3xl' : 'max-w-6xl',
      )}
    >
      {children}
    </div>
  )
}
