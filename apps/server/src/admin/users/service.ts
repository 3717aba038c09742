import type { Database } from '@sprout/db/database.ts'
import { session, user } from '@sprout/db/schema/auth.ts'
import {
  ADMIN_USERS_PAGE_SIZE,
  type AdminUser,
  type AdminUserList,
  type AdminUserSort,
  adminUserMessages,
} from '@sprout/protocol/api/admin-users.ts'
import { eq } from 'drizzle-orm'
import { lockActiveAdmins } from '../../auth/active-admins.ts'
import type { Auth } from '../../auth/auth.ts'
import type { AuthCache } from '../../auth/auth-cache.ts'
import { createPasswordResetLink } from '../../auth/password-reset-link.ts'
import { isPlatformAdmin } from '../../auth/require-session.ts'
import type { UserStreams } from '../../auth/user-streams.ts'
import type { Config } from '../../config/config.ts'
import { conflict, notFound } from '../../http/app-error.ts'
import type { Mailer } from '../../mail/mailer.ts'
import { passwordResetMail } from '../../mail/messages.ts'
import { findAdminUser, listUserPage } from './user-list.ts'

// docs/product/admin.md "Users tab": what a platform admin does with the installation's users.

export type AdminUsersContext = {
  db: Database
  auth: Auth
  config: Pick<Config, 'adminEmails' | 'publicUrl'>
  authCache: AuthCache
  userStreams: UserStreams
  mailer: Pick<Mailer, 'configured' | 'enqueue'>
  /** The chat's runs are above this layer: the composition root passes how to stop them. */
  stopRunsOfUser: (userId: string) => Promise<unknown>
}

export async function listUsers(
  context: Pick<AdminUsersContext, 'db' | 'config' | 'mailer'>,
  input: { query: string; page: number; sort: AdminUserSort },
): Promise<AdminUserList> {
  const { users, total } = await listUserPage(context.db, context.config, input)
  return {
    users,
    total,
    page: input.page,
    pageSize: ADMIN_USERS_PAGE_SIZE,
    mailConfigured: context.mailer.configured,
  }
}

async function requireUser(context: Pick<AdminUsersContext, 'db' | 'config'>, userId: string) {
  const found = await findAdminUser(context.db, context.config, userId)
  if (!found) throw notFound(adminUserMessages.userNotFound)
  return found
}

/** After the sessions' rows went: none is served from the cache, their open tabs' streams end. */
async function endSessions(context: AdminUsersContext, ended: { id: string }[]) {
  await context.authCache.flush()
  await context.userStreams.endSessions(ended.map((row) => row.id))
}

/** Makes the user an admin or takes it away; never from the last admin. */
export async function setUserRole(
  context: AdminUsersContext,
  userId: string,
  role: 'admin' | 'user',
): Promise<AdminUser> {
  const { db, config } = context
  await db.transaction(async (transaction) => {
    const [target] = await transaction
      .select({ id: user.id, email: user.email })
      .from(user)
      .where(eq(user.id, userId))
    if (!target) throw notFound(adminUserMessages.userNotFound)
    if (role === 'user') {
      if (config.adminEmails.includes(target.email.toLowerCase())) {
        throw conflict(adminUserMessages.listedAdmin)
      }
      const admins = await lockActiveAdmins(transaction, config)
      if (admins.length === 1 && admins[0] === userId) {
        throw conflict(adminUserMessages.lastAdminRole)
      }
    }
    await transaction.update(user).set({ role }).where(eq(user.id, userId))
  })
  // Sessions cache whether their user is an admin (require-session.ts).
  await context.authCache.flush()
  return requireUser(context, userId)
}

/**
 * Bans the user with a reason: their sessions end at once (open tabs too), their runs stop, and
 * signing in answers the reason (auth/banned-sign-in.ts). Never oneself, never the last admin.
 */
export async function banUser(
  context: AdminUsersContext,
  actorId: string,
  userId: string,
  reason: string,
): Promise<AdminUser> {
  const { db, config } = context
  const ended = await db.transaction(async (transaction) => {
    const [target] = await transaction
      .select({ id: user.id, email: user.email, role: user.role, banned: user.banned })
      .from(user)
      .where(eq(user.id, userId))
    if (!target) throw notFound(adminUserMessages.userNotFound)
    if (userId === actorId) throw conflict(adminUserMessages.banYourself)
    if (target.banned !== true && isPlatformAdmin(target, config)) {
      const admins = await lockActiveAdmins(transaction, config)
      if (!admins.some((id) => id !== userId)) throw conflict(adminUserMessages.lastAdminBan)
    }
    await transaction
      .update(user)
      .set({ banned: true, banReason: reason, banExpires: null })
      .where(eq(user.id, userId))
    return transaction
      .delete(session)
      .where(eq(session.userId, userId))
      .returning({ id: session.id })
  })
  await endSessions(context, ended)
  await context.stopRunsOfUser(userId)
  return requireUser(context, userId)
}

export async function unbanUser(context: AdminUsersContext, userId: string): Promise<AdminUser> {
  await requireUser(context, userId)
  await context.db
    .update(user)
    .set({ banned: false, banReason: null, banExpires: null })
    .where(eq(user.id, userId))
  return requireUser(context, userId)
}

/** Signs the user out of every browser and API client. */
export async function signOutEverywhere(
  context: AdminUsersContext,
  userId: string,
): Promise<AdminUser> {
  await requireUser(context, userId)
  const ended = await context.db
    .delete(session)
    .where(eq(session.userId, userId))
    .returning({ id: session.id })
  await endSessions(context, ended)
  return requireUser(context, userId)
}

/** A single-use link to set a new password, valid for an hour, for the admin to hand over. */
export async function createResetLink(
  context: AdminUsersContext,
  userId: string,
): Promise<{ url: string }> {
  await requireUser(context, userId)
  return { url: await createPasswordResetLink(context.auth, userId, context.config.publicUrl) }
}

/** The same link, mailed to the user; 409 without SMTP. */
export async function sendResetMail(
  context: AdminUsersContext,
  userId: string,
): Promise<{ sent: true }> {
  if (!context.mailer.configured) throw conflict(adminUserMessages.mailNotConfigured)
  const target = await requireUser(context, userId)
  const url = await createPasswordResetLink(context.auth, userId, context.config.publicUrl)
  await context.mailer.enqueue(passwordResetMail({ to: target.email, name: target.name, url }))
  return { sent: true }
}
