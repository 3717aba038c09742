import type { Session } from '../../lib/session-query.ts'
import { hasSelectedPersonal } from './personal-mode.ts'

export type OrganizationSelection =
  | { kind: 'organization'; externalOrganizationId: string }
  | { kind: 'personal' }
  | { kind: 'unselected' }

/**
 * An active organization wins, else the remembered personal choice, else none
 * (docs/product/organizations.md).
 */
export function readOrganizationSelection(session: Session): OrganizationSelection {
  const activeOrganizationId = session.session.activeOrganizationId
  if (activeOrganizationId) {
    return { kind: 'organization', externalOrganizationId: activeOrganizationId }
  }
  if (hasSelectedPersonal(session.user.id)) return { kind: 'personal' }
  return { kind: 'unselected' }
}
