import type { Database } from '@sprout/db/database.ts'
import { applications } from '@sprout/db/schema/applications.ts'
import { organization, user } from '@sprout/db/schema/auth.ts'
import type { AppVisibility } from '@sprout/protocol/api/app-visibility.ts'
import { eq } from 'drizzle-orm'
import { visibilityChoices } from '../../applications/service.ts'
import { type AuthCache, type MembershipCache, TtlCache } from '../../auth/auth-cache.ts'
import { findMembership, organizationOwnerName } from '../../organizations/service.ts'
import type { AppVisitor } from '../hand-off/app-identity.ts'

/** What the apps host knows of an app to decide who may open it. */
export type AppAccessRecord = {
  id: string
  organizationId: string
  visibility: AppVisibility
  allowedEmails: string[]
  /** Whose app it is, as the refusal page says: the organization, or a personal app's owner. */
  ownerLabel: string
  isPersonal: boolean
}

export type AccessDecision =
  | { kind: 'open'; visitor?: AppVisitor }
  | { kind: 'sign-in' }
  | { kind: 'refused'; email: string; reason: 'not-member' | 'not-listed' | 'unverified' }

type Person = { name: string; email: string; emailVerified: boolean }

const roles = new Set(['owner', 'admin', 'member'])

/**
 * Who may open a deploy (docs/product/deploys.md "Who may open a deploy"): the app's visibility,
 * the visitor's membership and address. Apps and people are cached briefly and dropped whenever
 * the auth cache is flushed (a visibility change, a member removed, a ban: on every instance),
 * so a change holds at once and nothing stays open past the cache's 60 s.
 */
export function createAppAccess(options: {
  db: Database
  memberships: MembershipCache
  authCache?: Pick<AuthCache, 'onFlush'>
}) {
  const { db, memberships } = options
  const bySlug = new TtlCache<AppAccessRecord | null>(5000, 10_000)
  const people = new TtlCache<Person | null>(60_000, 20_000)
  options.authCache?.onFlush(() => {
    bySlug.clear()
    people.clear()
  })

  const loadApplication = async (slug: string): Promise<AppAccessRecord | null> => {
    const rows = await db
      .select({
        id: applications.id,
        organizationId: applications.organizationId,
        visibility: applications.visibility,
        allowedEmails: applications.allowedEmails,
        organizationName: organization.name,
        isPersonal: organization.isPersonal,
        ownerName: organizationOwnerName,
      })
      .from(applications)
      .innerJoin(organization, eq(organization.id, applications.organizationId))
      .where(eq(applications.slug, slug))
      .limit(1)
    const row = rows[0]
    if (!row) return null
    const isPersonal = row.isPersonal === true
    const ownerLabel = (isPersonal ? row.ownerName : row.organizationName) ?? 'its owner'
    return { ...row, isPersonal, ownerLabel }
  }

  const loadPerson = async (userId: string): Promise<Person | null> => {
    const rows = await db
      .select({
        name: user.name,
        email: user.email,
        emailVerified: user.emailVerified,
        banned: user.banned,
      })
      .from(user)
      .where(eq(user.id, userId))
      .limit(1)
    const row = rows[0]
    return row && row.banned !== true ? row : null
  }

  /** Who `userId` is to an app of `organizationId`: their name, address and role there. */
  const visitorOf = async (userId: string, organizationId: string) => {
    const person = await people.getOrLoad(userId, () => loadPerson(userId))
    if (!person) return undefined
    const membership = await findMembership({ db, userId, memberships }, organizationId)
    const role =
      membership && roles.has(membership.role) ? (membership.role as AppVisitor['role']) : null
    const visitor: AppVisitor = {
      sub: userId,
      name: person.name,
      email: person.email,
      org: organizationId,
      role,
    }
    return { visitor, person, membership }
  }

  return {
    application: (slug: string) => bySlug.getOrLoad(slug, () => loadApplication(slug)),

    visitor: async (userId: string, organizationId: string) =>
      (await visitorOf(userId, organizationId))?.visitor,

    /** Whether `userId` (from the app's cookie; none for an anonymous visitor) may open `app`. */
    decide: async (app: AppAccessRecord, userId: string | undefined): Promise<AccessDecision> => {
      const known = userId ? await visitorOf(userId, app.organizationId) : undefined
      if (!known) return app.visibility === 'public' ? { kind: 'open' } : { kind: 'sign-in' }
      const { visitor, person, membership } = known
      const open = { kind: 'open' as const, visitor }
      if (app.visibility === 'public') return open
      const refused = (reason: 'not-member' | 'not-listed' | 'unverified') => ({
        kind: 'refused' as const,
        email: person.email,
        reason,
      })
      if (app.visibility === 'organization') return membership ? open : refused('not-member')
      // Whoever may change the list may always open the app.
      if (membership && visibilityChoices(membership).length > 0) return open
      if (!app.allowedEmails.includes(person.email.toLowerCase())) return refused('not-listed')
      // An unverified address proves nothing: anyone could sign up with a listed one.
      return person.emailVerified ? open : refused('unverified')
    },
  }
}

export type AppAccess = ReturnType<typeof createAppAccess>
