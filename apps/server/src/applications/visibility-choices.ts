import type { AppVisibility } from '@sprout/protocol/api/app-visibility.ts'
import type { OrganizationContext } from '../http/app-env.ts'

const organizationAdminRoles = new Set(['owner', 'admin'])

/**
 * What the caller may set an app's visibility to (docs/product/deploys.md "Who may open a
 * deploy"): an organization's admins any of the three, a personal app's owner `public` or
 * `people`, anyone else nothing.
 */
export function visibilityChoices(organization: OrganizationContext): AppVisibility[] {
  if (organization.isPersonal) return ['public', 'people']
  return organizationAdminRoles.has(organization.role) ? ['public', 'organization', 'people'] : []
}

/** A new app of an organization is for its members; a personal app is public. */
export const defaultVisibility = (organization: OrganizationContext): AppVisibility =>
  organization.isPersonal ? 'public' : 'organization'
