import type { Database } from '@sprout/db/database.ts'
import { applications } from '@sprout/db/schema/applications.ts'
import { member, organization, user } from '@sprout/db/schema/auth.ts'
import { conversations } from '@sprout/db/schema/conversations.ts'
import { and, eq, sql } from 'drizzle-orm'
import type { MembershipCache } from '../auth/auth-cache.ts'
import type { OrganizationContext } from '../http/app-env.ts'
import { forbidden, notFound } from '../http/app-error.ts'

type Context = { db: Database; userId: string; memberships?: MembershipCache }

export async function findMembership(
  { db, userId, memberships }: Context,
  organizationId: string,
): Promise<OrganizationContext | undefined> {
  const load = () => loadMembership(db, userId, organizationId)
  const membership = memberships
    ? await memberships.getOrLoad(`${userId}|${organizationId}`, load)
    : await load()
  return membership ?? undefined
}

async function loadMembership(
  db: Database,
  userId: string,
  organizationId: string,
): Promise<OrganizationContext | null> {
  const rows = await db
    .select({ role: member.role, isPersonal: organization.isPersonal })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(and(eq(member.userId, userId), eq(member.organizationId, organizationId)))
    .limit(1)
  const row = rows[0]
  return row ? { id: organizationId, role: row.role, isPersonal: row.isPersonal === true } : null
}

export async function findPersonalOrganization({
  db,
  userId,
  memberships,
}: Context): Promise<OrganizationContext> {
  const load = () => loadPersonalOrganization(db, userId)
  const personal = memberships
    ? await memberships.getOrLoad(`${userId}|personal`, load)
    : await load()
  if (!personal) throw notFound('Personal organization not found')
  return personal
}

async function loadPersonalOrganization(
  db: Database,
  userId: string,
): Promise<OrganizationContext | null> {
  const rows = await db
    .select({ id: organization.id, role: member.role })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(and(eq(member.userId, userId), eq(organization.isPersonal, true)))
    .limit(1)
  const row = rows[0]
  return row ? { id: row.id, role: row.role, isPersonal: true } : null
}

/**
 * The organization a call acts in: the `Organization-ID` header when given (the caller must be a
 * member), else the session's active organization while the caller is still a member of it, else
 * the personal organization.
 */
export async function resolveOrganization(
  context: Context,
  input: {
    headerOrganizationId: string | undefined
    activeOrganizationId: string | null | undefined
  },
): Promise<OrganizationContext> {
  if (input.headerOrganizationId) {
    const membership = await findMembership(context, input.headerOrganizationId)
    if (!membership) throw forbidden()
    return membership
  }
  if (input.activeOrganizationId) {
    const membership = await findMembership(context, input.activeOrganizationId)
    if (membership) return membership
  }
  return findPersonalOrganization(context)
}

/** Maps the authentication provider's organization id to Sprout's; a non-member gets a 404. */
export async function lookupOrganization(context: Context, externalOrganizationId: string) {
  const membership = await findMembership(context, externalOrganizationId)
  if (!membership) throw notFound('Organization not found')
  return { id: membership.id }
}

/**
 * The organization an application or exploration belongs to, for a member of it: a link to one
 * opens in its organization (docs/product/organizations.md "Organization context"). Anybody else
 * gets the same 404 as for an unknown id.
 */
export async function findOwningOrganization(
  context: Context,
  owned: { kind: 'application' | 'exploration'; id: string },
): Promise<{ id: string; isPersonal: boolean }> {
  const rows =
    owned.kind === 'application'
      ? await context.db
          .select({ organizationId: applications.organizationId })
          .from(applications)
          .where(eq(applications.id, owned.id))
          .limit(1)
      : await context.db
          .select({ organizationId: conversations.organizationId })
          .from(conversations)
          .where(and(eq(conversations.id, owned.id), eq(conversations.kind, 'exploration')))
          .limit(1)
  const organizationId = rows[0]?.organizationId
  const membership = organizationId ? await findMembership(context, organizationId) : undefined
  if (!membership) {
    throw notFound(owned.kind === 'application' ? 'Application not found' : 'Exploration not found')
  }
  return { id: membership.id, isPersonal: membership.isPersonal }
}

/**
 * The name of the organization's owner, for a query that reads `organization`: personal
 * organizations are all named 'Personal', so screens listing several tell them apart by it.
 */
export const organizationOwnerName = sql<string | null>`(
  select ${user.name} from ${member} inner join ${user} on ${user.id} = ${member.userId}
  where ${member.organizationId} = ${organization.id} and ${member.role} = 'owner'
  order by ${member.createdAt} limit 1
)`

/**
 * What an admin screen calls an organization (docs/product/admin.md "Conversation Evaluations
 * tab"): its name, or for a personal one its owner's name, e.g. 'Ada Admin (personal)'.
 */
export function organizationDisplayName(row: {
  name: string | null
  isPersonal: boolean | null
  ownerName: string | null
}): string | null {
  if (row.isPersonal) return row.ownerName ? `${row.ownerName} (personal)` : 'Personal'
  return row.name
}

export { readCheckSettings, repairsAutomatically, writeCheckSettings } from './check-settings.ts'
