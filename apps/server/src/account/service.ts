import type { Database } from '@sprout/db/database.ts'
import { account, session, user } from '@sprout/db/schema/auth.ts'
import {
  ACCOUNT_SESSION_NOT_FOUND,
  type AccountSession,
  type AccountSummary,
} from '@sprout/protocol/api/account.ts'
import { and, desc, eq, isNotNull } from 'drizzle-orm'
import { notFound } from '../http/app-error.ts'
import { deviceLabel } from './device-label.ts'

/** Who asks, and through which session (the one that is 'This device'). */
export type AccountContext = { db: Database; userId: string; sessionId: string }

export async function getAccountSummary(
  context: AccountContext,
  mailConfigured: boolean,
): Promise<AccountSummary> {
  const [row] = await context.db
    .select({ name: user.name, email: user.email, emailVerified: user.emailVerified })
    .from(user)
    .where(eq(user.id, context.userId))
  if (!row) throw notFound('Account not found')
  const passwords = await context.db
    .select({ id: account.id })
    .from(account)
    .where(and(eq(account.userId, context.userId), isNotNull(account.password)))
    .limit(1)
  return { ...row, mailConfigured, hasPassword: passwords.length > 0 }
}

/** The caller's unexpired sessions, the current one first; ids only, never tokens. */
export async function listAccountSessions(context: AccountContext): Promise<AccountSession[]> {
  const rows = await context.db
    .select({
      id: session.id,
      userAgent: session.userAgent,
      ipAddress: session.ipAddress,
      createdAt: session.createdAt,
      updatedAt: session.updatedAt,
      expiresAt: session.expiresAt,
    })
    .from(session)
    .where(eq(session.userId, context.userId))
    .orderBy(desc(session.updatedAt))
  const now = Date.now()
  return rows
    .filter((row) => row.expiresAt.getTime() > now)
    .map((row) => ({
      id: row.id,
      device: deviceLabel(row.userAgent),
      address: row.ipAddress || null,
      createdAt: row.createdAt.toISOString(),
      lastActiveAt: row.updatedAt.toISOString(),
      current: row.id === context.sessionId,
    }))
    .sort((first, second) => Number(second.current) - Number(first.current))
}

/**
 * Ends one of the caller's sessions; another user's session id is a 404, as an unknown one.
 * Resolves to the ended session's id (for its streams to end).
 */
export async function revokeAccountSession(
  context: AccountContext,
  sessionId: string,
): Promise<string[]> {
  const deleted = await context.db
    .delete(session)
    .where(and(eq(session.id, sessionId), eq(session.userId, context.userId)))
    .returning({ id: session.id })
  if (deleted.length === 0) throw notFound(ACCOUNT_SESSION_NOT_FOUND)
  return deleted.map((row) => row.id)
}
