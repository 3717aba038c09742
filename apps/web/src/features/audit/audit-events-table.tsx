import type { AuditEvent } from '@sprout/protocol/api/audit.ts'
import { ScrollBlock } from '../../components/ui/scroll-block.tsx'

const none = '—'

const formatTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' })

const cellClasses = 'px-4 py-3 align-top'

function AuditDetails({ details }: { details: AuditEvent['details'] }) {
  const entries = Object.entries(details ?? {})
  if (entries.length === 0) return <>{none}</>
  return (
    <dl className="flex flex-col gap-0.5">
      {entries.map(([name, value]) => (
        <div key={name} className="flex gap-1">
          <dt className="text-zinc-500">{name}:</dt>
          <dd className="break-all text-zinc-800">{value === null ? none : String(value)}</dd>
        </div>
      ))}
    </dl>
  )
}

/**
 * docs/product/audit.md "What is recorded": one row per event, for the admin's Audit tab and an
 * organization's settings (whose events all share the organization, so it hides that column).
 */
export function AuditEventsTable({
  events,
  showOrganization,
}: {
  events: AuditEvent[]
  showOrganization: boolean
}) {
  const columns = [
    'Time',
    'Action',
    'Actor',
    'Target',
    ...(showOrganization ? ['Organization'] : []),
    'Address',
    'Details',
  ]
  return (
    // Wider than a phone: it scrolls sideways, so the keyboard reaches it too (axe
    // "scrollable-region-focusable").
    <ScrollBlock
      as="div"
      label="Audit events, scrolls sideways"
      className="overflow-x-auto rounded-2xl border border-zinc-200 bg-white shadow-sm"
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Audit events</caption>
        <thead className="border-b border-zinc-100 bg-zinc-50/60 text-xs text-zinc-500">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className="px-4 py-2.5 font-medium">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {events.map((event) => (
            <tr key={event.id}>
              <td className={`${cellClasses} whitespace-nowrap text-zinc-600`}>
                <time dateTime={event.at} title={event.at}>
                  {formatTime(event.at)}
                </time>
              </td>
              <td className={`${cellClasses} font-mono text-xs whitespace-nowrap text-zinc-900`}>
                {event.action}
              </td>
              <td
                className={`${cellClasses} break-all text-zinc-800`}
                title={event.actor.email && event.actor.id ? event.actor.id : undefined}
              >
                {event.actor.email ?? event.actor.id ?? none}
              </td>
              <td
                className={`${cellClasses} break-all text-zinc-800`}
                title={event.target.type ?? undefined}
              >
                {event.target.label ?? event.target.id ?? none}
              </td>
              {showOrganization && (
                <td className={`${cellClasses} font-mono text-xs break-all text-zinc-600`}>
                  {event.organization_id ?? none}
                </td>
              )}
              <td
                className={`${cellClasses} whitespace-nowrap text-zinc-600`}
                title={event.user_agent ?? undefined}
              >
                {event.address ?? none}
              </td>
              <td className={`${cellClasses} text-xs`}>
                <AuditDetails details={event.details} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBlock>
  )
}
