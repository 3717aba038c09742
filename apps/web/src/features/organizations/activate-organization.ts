import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import { setCurrentOrganizationId } from '../../lib/current-organization.ts'
import { setSelectedPersonal } from './personal-mode.ts'

export type OrganizationTarget = { kind: 'personal' } | { kind: 'organization'; id: string }

/**
 * Makes `target` the user's organization (docs/product/organizations.md "Organization context"):
 * an organization becomes the session's active one and clears the personal flag; personal does
 * the reverse. The caller drops what was loaded for the previous one.
 */
export async function activateOrganization(userId: string, target: OrganizationTarget) {
  await unwrapAuthResult(
    authClient.organization.setActive({
      organizationId: target.kind === 'personal' ? null : target.id,
    }),
  )
  setSelectedPersonal(userId, target.kind === 'personal')
  setCurrentOrganizationId(undefined)
}
