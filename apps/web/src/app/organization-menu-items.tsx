import { Link } from '@tanstack/react-router'
import { CheckIcon, PeopleIcon } from '../components/ui/icons.tsx'
import type { OrganizationTarget } from '../features/organizations/use-switch-organization.ts'
import { classNames } from '../lib/class-names.ts'
import type { OrganizationChoices } from './use-organization-choices.ts'
import { menuItemClasses } from './user-menu-item-classes.ts'

function CheckMark({ visible }: { visible: boolean }) {
  return (
    <CheckIcon strokeWidth="2" className={classNames('text-accent-600', !visible && 'invisible')} />
  )
}

type OrganizationMenuItemsProps = {
  choices: OrganizationChoices
  onChoose: (target: OrganizationTarget) => void
  /** Leaving for the organizations page closes the menu. */
  onManage: () => void
}

/** The user menu's "Organizations" section: Personal, the teams, and a link to manage them. */
export function OrganizationMenuItems({ choices, onChoose, onManage }: OrganizationMenuItemsProps) {
  const { teams, activeId, isPersonalCurrent } = choices
  return (
    <div>
      <p className="px-2.5 pt-1.5 pb-1 text-xs font-medium text-zinc-500">Organizations</p>
      <button
        type="button"
        role="menuitemradio"
        aria-checked={isPersonalCurrent}
        className={menuItemClasses}
        onClick={() => onChoose({ kind: 'personal' })}
      >
        <CheckMark visible={isPersonalCurrent} />
        Personal
      </button>
      {teams.map((team) => (
        <button
          key={team.id}
          type="button"
          role="menuitemradio"
          aria-checked={team.id === activeId}
          className={menuItemClasses}
          onClick={() => onChoose({ kind: 'organization', id: team.id })}
        >
          <CheckMark visible={team.id === activeId} />
          <span className="truncate">{team.name}</span>
        </button>
      ))}
      <Link
        to="/organizations"
        role="menuitem"
        className={classNames(menuItemClasses, 'text-zinc-500')}
        onClick={() => onManage()}
      >
        <PeopleIcon />
        Manage organizations
      </Link>
    </div>
  )
}
