import type { Application } from '@sprout/protocol/api/applications.ts'
import { Link } from '@tanstack/react-router'
import { ExternalLinkIcon, GlobeIcon, TrashIcon } from '../../components/ui/icons.tsx'
import { devboxHandOffPath } from '../../lib/devbox-hand-off.ts'
import { initials } from '../../lib/initials.ts'

type ApplicationCardProps = { application: Application; onDelete: () => void }

const chipClasses =
  'relative z-10 inline-flex h-7 items-center gap-1.5 rounded-lg px-2 text-xs font-medium transition-colors'

/** One application on the home grid; the whole card opens its editor. */
export function ApplicationCard({ application, onDelete }: ApplicationCardProps) {
  const { name } = application
  return (
    <article
      aria-label={name}
      className="group relative flex flex-col overflow-hidden rounded-2xl border border-zinc-200 bg-white shadow-sm transition hover:-translate-y-0.5 hover:border-zinc-300 hover:shadow-md focus-within:border-zinc-300"
    >
      <div
        aria-hidden="true"
        className="relative flex h-28 items-center justify-center border-b border-zinc-100 bg-gradient-to-br from-zinc-50 via-white to-accent-50"
      >
        <span className="flex size-12 items-center justify-center rounded-2xl bg-white text-base font-semibold text-zinc-700 shadow-sm ring-1 ring-zinc-200">
          {initials(name)}
        </span>
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="min-w-0">
          <h2 className="truncate text-sm font-semibold text-zinc-900">
            <Link
              to="/applications/$id/edit"
              params={{ id: application.id }}
              className="outline-none after:absolute after:inset-0 after:rounded-2xl focus-visible:after:ring-2 focus-visible:after:ring-accent-500"
            >
              {name}
            </Link>
          </h2>
          <p className="text-xs text-zinc-500">Application</p>
        </div>
        <div className="mt-auto flex items-center gap-1">
          <a
            href={devboxHandOffPath(application.preview_url)}
            target="_blank"
            rel="noopener noreferrer"
            className={`${chipClasses} bg-zinc-100 text-zinc-700 hover:bg-zinc-200`}
          >
            <ExternalLinkIcon className="size-3.5" />
            Preview
          </a>
          {application.prod_url && (
            <a
              href={application.prod_url}
              target="_blank"
              rel="noopener noreferrer"
              className={`${chipClasses} bg-accent-50 text-accent-700 hover:bg-accent-100`}
            >
              <GlobeIcon className="size-3.5" />
              Live
            </a>
          )}
          <button
            type="button"
            onClick={onDelete}
            aria-label={`Delete ${name}`}
            title="Delete application"
            className={`${chipClasses} ml-auto text-zinc-400 hover:bg-red-50 hover:text-red-600`}
          >
            <TrashIcon />
          </button>
        </div>
      </div>
    </article>
  )
}
