import { AuditLogView } from './audit-log-view.tsx'

/** docs/product/admin.md "Audit tab": every organization's events, for platform admins. */
export function AdminAuditPanel() {
  return (
    <section aria-labelledby="audit-heading">
      <div className="mb-4">
        <h2 id="audit-heading" className="text-lg font-semibold text-zinc-900">
          Audit log
        </h2>
        <p className="text-sm text-zinc-500">Who did what, from where.</p>
      </div>
      <AuditLogView source={{ kind: 'admin' }} />
    </section>
  )
}
