import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { classNames } from '../../lib/class-names.ts'
import { buttonClasses } from '../ui/button.tsx'

type NoticePageProps = {
  /** A size-6 icon, shown in a tile above the title. */
  icon: ReactNode
  tone: 'muted' | 'danger'
  title: string
  message: ReactNode
  /** The message is an error the screen reader should announce. */
  alert?: boolean
  /** The page's height and padding. */
  className: string
}

/** A page that stops here: an icon tile, a title, why, and a way back home. */
export function NoticePage({ icon, tone, title, message, alert, className }: NoticePageProps) {
  return (
    <div className={classNames('flex flex-col items-center justify-center text-center', className)}>
      <div
        className={classNames(
          'mb-4 flex size-12 items-center justify-center rounded-2xl',
          tone === 'muted' ? 'bg-zinc-100 text-zinc-500' : 'bg-red-50 text-red-600',
        )}
      >
        {icon}
      </div>
      <h1 className="text-xl font-semibold text-zinc-900">{title}</h1>
      <p role={alert ? 'alert' : undefined} className="mt-1 max-w-md text-sm text-zinc-500">
        {message}
      </p>
      <Link to="/" className={`${buttonClasses('secondary')} mt-6`}>
        Return to Home
      </Link>
    </div>
  )
}
