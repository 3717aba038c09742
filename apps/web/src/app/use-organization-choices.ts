import { useQuery } from '@tanstack/react-query'
import { organizationListQueryOptions } from '../features/organizations/organization-queries.ts'
import type { OrganizationSummary } from '../features/organizations/organization-types.ts'
import { useOrganizationSelection } from '../features/organizations/use-organization-selection.ts'

/** What the user menu offers to switch to: Personal and the user's teams, and which is current. */
export type OrganizationChoices = {
  /** The user's teams (not the personal organization), by name. */
  teams: OrganizationSummary[]
  activeId: string | undefined
  isPersonalCurrent: boolean
  /** Shown on the menu's button; undefined until known. */
  currentName: string | undefined
}

export function useOrganizationChoices(userId: string): OrganizationChoices {
  const selection = useOrganizationSelection()
  const organizations = useQuery(organizationListQueryOptions(userId))

  const teams = (organizations.data ?? [])
    .filter((organization) => organization.isPersonal !== true)
    .sort((first, second) => first.name.localeCompare(second.name))
  const personalOrganizationId = organizations.data?.find((item) => item.isPersonal === true)?.id
  const activeId = selection?.kind === 'organization' ? selection.externalOrganizationId : undefined
  const isPersonalCurrent =
    selection?.kind === 'personal' ||
    (activeId !== undefined && activeId === personalOrganizationId)
  const currentName = isPersonalCurrent
    ? 'Personal'
    : teams.find((team) => team.id === activeId)?.name
  return { teams, activeId, isPersonalCurrent, currentName }
}
