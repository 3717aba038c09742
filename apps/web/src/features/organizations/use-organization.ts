import { useContext } from 'react'
import { OrganizationContext } from './organization-context.ts'
import type { ResolvedOrganization } from './organization-types.ts'

/**
 * The organization the signed-in user works in: `{ organizationId, externalOrganizationId,
 * isPersonal, name }`. Only screens under the organization route (those that need one) may call it.
 */
export function useOrganization(): ResolvedOrganization {
  const organization = useContext(OrganizationContext)
  if (!organization) {
    throw new Error(
      'useOrganization() needs a screen under the organization route (_organization).',
    )
  }
  return organization
}
