import { randomBytes } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { appRuntimeTokens } from '@sprout/db/schema/app-runtime-tokens.ts'
import { applications } from '@sprout/db/schema/applications.ts'
import { and, eq, isNull } from 'drizzle-orm'
import type { VaultKeyring } from '../sealing/master-keys.ts'
import { hashOfAppToken, openAppToken, sealAppToken } from './app-token-sealing.ts'

/** The application a token belongs to, with its organization. */
export type TokenOwner = { applicationId: string; organizationId: string }

type TokenRow = typeof appRuntimeTokens.$inferSelect

/** Tries of read-then-write before giving up: each lost one means another instance wrote first. */
const settleAttempts = 3

/**
 * Per-app tokens (SPROUT_APP_TOKEN; decisions 019 and 035). The token is stored sealed with the
 * vault key beside its SHA-256, so every instance hands the same one to the servers it starts;
 * a row without a sealed token (made before) or with one that does not open gets a new token.
 */
export function createAppTokens(db: Database, keyring: VaultKeyring) {
  // One read or write per application at a time in this process.
  const settling = new Map<string, Promise<string>>()

  const stored = async (applicationId: string) => {
    const [row] = await db
      .select()
      .from(appRuntimeTokens)
      .where(eq(appRuntimeTokens.applicationId, applicationId))
    return row
  }

  /** A new token written over `row` only if it is still what was read: another writer wins. */
  const replace = async (applicationId: string, row: TokenRow | undefined) => {
    const token = randomBytes(32).toString('base64url')
    const values = {
      tokenHash: hashOfAppToken(token),
      sealedToken: sealAppToken(keyring, applicationId, token),
      createdAt: new Date(),
    }
    const returning = { applicationId: appRuntimeTokens.applicationId }
    const written = row
      ? await db
          .update(appRuntimeTokens)
          .set(values)
          .where(
            and(
              eq(appRuntimeTokens.applicationId, applicationId),
              row.sealedToken === null
                ? isNull(appRuntimeTokens.sealedToken)
                : eq(appRuntimeTokens.sealedToken, row.sealedToken),
            ),
          )
          .returning(returning)
      : await db
          .insert(appRuntimeTokens)
          .values({ applicationId, ...values })
          .onConflictDoNothing()
          .returning(returning)
    return written.length > 0 ? token : undefined
  }

  const settle = async (applicationId: string) => {
    for (let attempt = 0; attempt < settleAttempts; attempt++) {
      const row = await stored(applicationId)
      const sealedToken = row?.sealedToken
      const opened = row && sealedToken ? openAppToken(keyring, { ...row, sealedToken }) : undefined
      if (opened) return opened
      const token = await replace(applicationId, row)
      if (token && sealedToken) {
        console.error(
          `[app tokens] the sealed token of application ${applicationId} did not open (altered, or written by an older version): replaced`,
        )
      }
      if (token) return token
    }
    throw new Error(`The app token of application ${applicationId} kept changing under this write`)
  }

  return {
    /**
     * The application's token: the stored one, or one made now. Read at every call (a server's
     * start), so a token replaced through another instance reaches the next server started here.
     */
    tokenFor: (applicationId: string): Promise<string> => {
      const inFlight = settling.get(applicationId)
      if (inFlight) return inFlight
      const work = settle(applicationId).finally(() => settling.delete(applicationId))
      settling.set(applicationId, work)
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
        .where(eq(appRuntimeTokens.tokenHash, hashOfAppToken(token)))
      return row
    },
  }
}

export type AppTokens = ReturnType<typeof createAppTokens>
