import { Avatar } from '../../components/ui/avatar.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { classNames } from '../../lib/class-names.ts'

type OrganizationCardProps = {
  name: string
  isPersonal: boolean
  isCurrent: boolean
  isManaged: boolean
  isSwitching: boolean
  onSwitch: () => void
  onManage?: () => void
}

export function OrganizationCard({
  name,
  isPersonal,
  isCurrent,
  isManaged,
  isSwitching,
  onSwitch,
  onManage,
}: OrganizationCardProps) {
  return (
    <li
      aria-label={name}
      className={classNames(
        'flex items-center gap-3 rounded-2xl border bg-white p-4 shadow-sm transition-colors',
        isManaged ? 'border-accent-500 ring-4 ring-accent-100' : 'border-zinc-200',
      )}
    >
      <Avatar name={name} shape="square" className="size-10 text-sm" />
      <div className="min-w-0 flex-1">
        <div className="flex items-center gap-2">
          <p className="truncate font-medium text-zinc-900">{name}</p>
          {isCurrent && <Badge tone="accent">Current</Badge>}
        </div>
        <p className="text-xs text-zinc-500">{isPersonal ? 'Just you' : 'Organization'}</p>
      </div>
      <div className="flex shrink-0 items-center gap-1">
        {onManage && (
          <Button variant="ghost" size="sm" onClick={onManage} aria-label={`Manage ${name}`}>
            Manage
          </Button>
        )}
        {!isCurrent && (
          <Button
            variant="secondary"
            size="sm"
            onClick={onSwitch}
            disabled={isSwitching}
            aria-label={`Switch to ${name}`}
          >
            Switch
          </Button>
        )}
      </div>
    </li>
  )
}
