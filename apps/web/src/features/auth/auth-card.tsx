import type { ReactNode } from 'react'
import { SproutLogo } from '../../components/sprout-logo.tsx'

type AuthCardProps = { title: string; subtitle: string; children: ReactNode; footer: ReactNode }

export function AuthCard({ title, subtitle, children, footer }: AuthCardProps) {
  return (
    <div className="flex min-h-[calc(100vh-3.5rem)] items-start justify-center px-4 py-12 sm:items-center">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex flex-col items-center text-center">
          <SproutLogo className="mb-4 size-10" />
          <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{title}</h1>
          <p className="mt-1 text-sm text-zinc-500">{subtitle}</p>
        </div>
        <div className="rounded-2xl border border-zinc-200 bg-white p-6 shadow-sm">{children}</div>
        <p className="mt-6 text-center text-sm text-zinc-500">{footer}</p>
      </div>
    </div>
  )
}
