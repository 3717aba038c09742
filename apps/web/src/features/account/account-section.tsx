import type { ReactNode } from 'react'
import { Card } from '../../components/ui/card.tsx'
import { classNames } from '../../lib/class-names.ts'

type AccountSectionProps = {
  title: string
  description?: ReactNode
  tone?: 'default' | 'danger'
  children: ReactNode
}

/** One card of the Account page, named by its heading. */
export function AccountSection({
  title,
  description,
  tone = 'default',
  children,
}: AccountSectionProps) {
  const headingId = `account-${title.toLowerCase().replace(/\W+/g, '-')}`
  return (
    <Card
      className={classNames('p-5', tone === 'danger' && 'border-red-200')}
      role="region"
      aria-labelledby={headingId}
    >
      <h2
        id={headingId}
        className={classNames(
          'text-base font-semibold',
          tone === 'danger' ? 'text-red-700' : 'text-zinc-900',
        )}
      >
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-zinc-500">{description}</p>}
      <div className="mt-4">{children}</div>
    </Card>
  )
}
