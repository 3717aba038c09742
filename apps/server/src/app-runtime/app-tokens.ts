import { createHash, randomBytes } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { appRuntimeTokens } from '@sprout/db/schema/app-runtime-tokens.ts'
import { applications } from '@sprout/db/schema/applications.ts'
import { eq } from 'drizzle-orm'

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')

/** The application a token belongs to, with its organization. */
export type TokenOwner = { applicationId: string; organizationId: string }

/**
 * Per-app tokens (SPROUT_APP_TOKEN; decision 019). Only the SHA-256 is stored, so the token lives
 * in memory from the app's first use: a restart stops every server, and the first use after it
 * replaces the token.
 */
export function createAppTokens(db: Database) {
  const issued = new Map<string, Promise<string>>()

  const issue = async (applicationId: string) => {
    const token = randomBytes(32).toString('base64url')
    await db
      .insert(appRuntimeTokens)
      .values({ applicationId, tokenHash: hashOf(token) })
      .onConflictDoUpdate({
        target: appRuntimeTokens.applicationId,
        set: { tokenHash: hashOf(token), createdAt: new Date() },
      })
    return token
  }

  return {
    /** The application's token, made on first use (one at a time: the first caller's wins). */
    tokenFor: (applicationId: string): Promise<string> => {
      const known = issued.get(applicationId)
      if (known) return known
      const work = issue(applicationId)
      issued.set(applicationId, work)
      // A failed write is tried again on the next use.
      work.catch(() => issued.delete(applicationId))
      return work
    },
    /** Whose token this is; undefined for an unknown one or one of a deleted application. */
    ownerOf: async (token: string): Promise<TokenOwner | undefined> => {
      if (!token) return undefined
      const [row] = await db
        .select({
          applicationId: appRuntimeTokens.applicationId,
          organizationId: applications.organizationId,
        })
        .from(appRuntimeTokens)
        .innerJoin(applications, eq(applications.id, appRuntimeTokens.applicationId))
        .where(eq(appRuntimeTokens.tokenHash, hashOf(token)))
      return row
    },
  }
}

export type AppTokens = ReturnType<typeof createAppTokens>
