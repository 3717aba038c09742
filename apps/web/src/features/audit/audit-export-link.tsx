import type { AuditQuery } from '@sprout/protocol/api/audit.ts'
import { useState } from 'react'
import { buttonClasses } from '../../components/ui/button.tsx'
import { type AuditSource, auditUrl, downloadAuditExport, EXPORT_FAILED } from './audit-api.ts'

/**
 * 'Export': every event matching the filters as JSON Lines (docs/product/audit.md "Who sees it").
 * A platform admin's link downloads as it is; an organization's is fetched with its header.
 */
export function AuditExportLink({ source, query }: { source: AuditSource; query: AuditQuery }) {
  const [busy, setBusy] = useState(false)
  const [failed, setFailed] = useState(false)
  const download = async () => {
    setBusy(true)
    setFailed(false)
    try {
      await downloadAuditExport(source, query)
    } catch {
      setFailed(true)
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="flex flex-col items-end gap-1">
      <a
        href={auditUrl(source, { ...query, format: 'jsonl' })}
        download
        aria-disabled={busy || undefined}
        onClick={
          source.kind === 'organization'
            ? (event) => {
                event.preventDefault()
                if (!busy) void download()
              }
            : undefined
        }
        className={buttonClasses('secondary', 'md')}
      >
        {busy ? 'Exporting...' : 'Export'}
      </a>
      {failed && (
        <p role="alert" className="text-xs text-red-600">
          {EXPORT_FAILED}
        </p>
      )}
    </div>
  )
}
