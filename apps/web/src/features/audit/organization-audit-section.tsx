import { useId } from 'react'
import { AuditLogView } from './audit-log-view.tsx'

type OrganizationAuditSectionProps = {
  organizationId: string
  /** Owners and admins; the server refuses everybody else, so they do not see the section. */
  canRead: boolean
}

/** An organization's own events in its settings (docs/product/audit.md "Who sees it"). */
export function OrganizationAuditSection({
  organizationId,
  canRead,
}: OrganizationAuditSectionProps) {
  const headingId = useId()
  if (!canRead) return null
  return (
    <section aria-labelledby={headingId} className="mt-10">
      <h2 id={headingId} className="text-base font-semibold text-zinc-900">
        Audit log
      </h2>
      <p className="mb-3 text-sm text-zinc-500">Who did what in this organization, from where.</p>
      <AuditLogView source={{ kind: 'organization', organizationId }} />
    </section>
  )
}
