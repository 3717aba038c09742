import type { Database } from '@sprout/db/database.ts'
import { applications } from '@sprout/db/schema/applications.ts'
import { member, organization, session, user } from '@sprout/db/schema/auth.ts'
import { conversations } from '@sprout/db/schema/conversations.ts'
import {
  ACCOUNT_CONFIRM_MISMATCH,
  ACCOUNT_LAST_ADMIN,
  type AccountDeletion,
  type AccountOrganization,
  soleOwnerMessage,
} from '@sprout/protocol/api/account.ts'
import { asc, eq, inArray } from 'drizzle-orm'
import { deleteApplicationRecord } from '../applications/service.ts'
import { lockActiveAdmins } from '../auth/active-admins.ts'
import type { Config } from '../config/config.ts'
import { badRequest, conflict, notFound } from '../http/app-error.ts'
import type { Origins } from '../http/origins.ts'
import type { AccountContext } from './service.ts'

/** What the areas above do when an account's applications and explorations go (app.ts wires it). */
export type AccountLifecycle = {
  /** The applications area's own path: runs stopped, dev box and deploys removed. */
  deletingApplication: (applicationId: string) => Promise<void>
  /** An exploration's run is stopped before its rows go. */
  deletingConversation: (conversationId: string) => Promise<void>
}

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0]

/** Refuses the installation's last admin, as the Users tab does (docs/product/admin.md "Users tab"). */
async function refuseLastAdmin(
  transaction: Transaction,
  config: Pick<Config, 'adminEmails'>,
  userId: string,
) {
  const admins = await lockActiveAdmins(transaction, config)
  if (admins.length === 1 && admins[0] === userId) throw conflict(ACCOUNT_LAST_ADMIN)
}

const isOwner = (role: string) =>
  role
    .split(',')
    .map((part) => part.trim())
    .includes('owner')

type Membership = AccountOrganization & { isPersonal: boolean; role: string }

async function membershipsOf(db: Database, userId: string): Promise<Membership[]> {
  return db
    .select({
      id: organization.id,
      name: organization.name,
      isPersonal: organization.isPersonal,
      role: member.role,
    })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(eq(member.userId, userId))
    .orderBy(asc(organization.name))
    .then((rows) => rows.map((row) => ({ ...row, isPersonal: row.isPersonal === true })))
}

/**
 * docs/product/auth.md "Account": organizations only the user belongs to go with the
 * account; shared ones are left, unless the user is their only owner (then nothing is deleted).
 */
export async function describeAccountDeletion(context: AccountContext): Promise<AccountDeletion> {
  const { db, userId } = context
  const memberships = await membershipsOf(db, userId)
  const organizationIds = memberships.map((membership) => membership.id)
  const others =
    organizationIds.length === 0
      ? []
      : await db
          .select({
            organizationId: member.organizationId,
            userId: member.userId,
            role: member.role,
          })
          .from(member)
          .where(inArray(member.organizationId, organizationIds))
  const deleted: AccountOrganization[] = []
  const left: AccountOrganization[] = []
  const blocking: AccountOrganization[] = []
  for (const membership of memberships) {
    const entry = { id: membership.id, name: membership.isPersonal ? 'Personal' : membership.name }
    const otherMembers = others.filter(
      (row) => row.organizationId === membership.id && row.userId !== userId,
    )
    if (membership.isPersonal || otherMembers.length === 0) deleted.push(entry)
    else if (isOwner(membership.role) && !otherMembers.some((row) => isOwner(row.role)))
      blocking.push(entry)
    else left.push(entry)
  }
  const deletedIds = deleted.map((entry) => entry.id)
  const ownedApplications =
    deletedIds.length === 0
      ? []
      : await db
          .select({ id: applications.id, name: applications.name })
          .from(applications)
          .where(inArray(applications.organizationId, deletedIds))
          .orderBy(asc(applications.name))
  const chats =
    deletedIds.length === 0
      ? []
      : await db
          .select({ applicationId: conversations.applicationId })
          .from(conversations)
          .where(inArray(conversations.organizationId, deletedIds))
  return {
    blockingOrganizations: blocking,
    deletedOrganizations: deleted,
    applications: ownedApplications,
    conversations: chats.filter((chat) => chat.applicationId !== null).length,
    explorations: chats.filter((chat) => chat.applicationId === null).length,
    leftOrganizations: left,
  }
}

/**
 * Deletes the account once `confirm` is its email: its sessions first (nothing new starts; their
 * streams end through `endSessions`), then the applications of the organizations it alone belongs
 * to through their own deletion path, those organizations, and the user (memberships and sign-in
 * accounts cascade).
 */
export async function deleteAccount(
  context: AccountContext & {
    origins: Origins
    config: Pick<Config, 'adminEmails'>
    lifecycle: AccountLifecycle
    endSessions: (sessionIds: string[]) => Promise<void>
  },
  confirm: string,
): Promise<void> {
  const { db, userId } = context
  const [row] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId))
  if (!row) throw notFound('Account not found')
  if (confirm.trim().toLowerCase() !== row.email.toLowerCase()) {
    throw badRequest(ACCOUNT_CONFIRM_MISMATCH)
  }
  const plan = await describeAccountDeletion(context)
  if (plan.blockingOrganizations.length > 0) {
    throw conflict(soleOwnerMessage(plan.blockingOrganizations.map((entry) => entry.name)))
  }
  // Checked before anything goes, and again, locked, as the user goes: two admins deleting their
  // accounts at once cannot leave none.
  await db.transaction((transaction) => refuseLastAdmin(transaction, context.config, userId))
  const ended = await db
    .delete(session)
    .where(eq(session.userId, userId))
    .returning({ id: session.id })
  await context.endSessions(ended.map((row) => row.id))
  const deletedIds = plan.deletedOrganizations.map((entry) => entry.id)
  if (deletedIds.length > 0) {
    const owned = await db
      .select({ id: applications.id, organizationId: applications.organizationId })
      .from(applications)
      .where(inArray(applications.organizationId, deletedIds))
    for (const application of owned) {
      await context.lifecycle.deletingApplication(application.id)
      await deleteApplicationRecord(
        {
          db,
          origins: context.origins,
          userId,
          organization: { id: application.organizationId, role: 'owner', isPersonal: false },
        },
        application.id,
      )
    }
    const explorations = await db
      .select({ id: conversations.id, applicationId: conversations.applicationId })
      .from(conversations)
      .where(inArray(conversations.organizationId, deletedIds))
    for (const exploration of explorations) {
      if (exploration.applicationId === null) {
        await context.lifecycle.deletingConversation(exploration.id)
      }
    }
  }
  await db.transaction(async (transaction) => {
    await refuseLastAdmin(transaction, context.config, userId)
    if (deletedIds.length > 0) {
      await transaction.delete(organization).where(inArray(organization.id, deletedIds))
    }
    await transaction.delete(user).where(eq(user.id, userId))
  })
}
