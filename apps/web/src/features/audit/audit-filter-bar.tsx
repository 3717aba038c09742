import { AUDIT_ACTIONS, type AuditAction } from '@sprout/protocol/api/audit.ts'
import { type ReactNode, useId } from 'react'
import { inputClasses, TextField } from '../../components/ui/text-field.tsx'
import type { AuditFilters } from './audit-filters.ts'

const isAuditAction = (value: string): value is AuditAction =>
  (AUDIT_ACTIONS as readonly string[]).includes(value)

/** The audit log's filters; `showOrganization` for platform admins, who see every organization. */
export function AuditFilterBar({
  filters,
  showOrganization,
  onChange,
  actions,
}: {
  filters: AuditFilters
  showOrganization: boolean
  onChange: (filters: AuditFilters) => void
  /** Shown at the end of the bar: the export. */
  actions?: ReactNode
}) {
  const actionId = useId()
  const change = (field: keyof AuditFilters) => (event: { target: { value: string } }) =>
    onChange({ ...filters, [field]: event.target.value })
  return (
    <form
      aria-label="Filter audit events"
      onSubmit={(event) => event.preventDefault()}
      className="flex flex-wrap items-end gap-3"
    >
      <TextField
        label="Actor"
        type="search"
        placeholder="User id or email"
        value={filters.actor}
        onChange={change('actor')}
        className="w-56"
      />
      {showOrganization && (
        <TextField
          label="Organization"
          type="search"
          placeholder="Organization id"
          value={filters.organization}
          onChange={change('organization')}
          className="w-56"
        />
      )}
      <div className="flex w-52 flex-col gap-1.5">
        <label htmlFor={actionId} className="text-sm font-medium text-zinc-700">
          Action
        </label>
        <select
          id={actionId}
          value={filters.action}
          onChange={(event) =>
            onChange({
              ...filters,
              action: isAuditAction(event.target.value) ? event.target.value : '',
            })
          }
          className={inputClasses}
        >
          <option value="">All actions</option>
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {action}
            </option>
          ))}
        </select>
      </div>
      <TextField
        label="From"
        type="date"
        value={filters.from}
        onChange={change('from')}
        className="w-40"
      />
      <TextField
        label="To"
        type="date"
        value={filters.to}
        onChange={change('to')}
        className="w-40"
      />
      {actions && <div className="ml-auto flex items-end">{actions}</div>}
    </form>
  )
}
