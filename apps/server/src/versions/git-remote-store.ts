import type { Database } from '@sprout/db/database.ts'
import { gitRemotes } from '@sprout/db/schema/git-remotes.ts'
import type { GitRemote, GitRemoteRequest } from '@sprout/protocol/api/versions.ts'
import { and, eq } from 'drizzle-orm'
import type { VaultKeyring } from '../sealing/master-keys.ts'
import { openSecret, sealSecret } from '../sealing/secret-sealing.ts'

/** The associated data's key: a git token never opens as a vault value, nor the other way. */
const sealedField = 'git-remote-token'

export const DEFAULT_GIT_BRANCH = 'main'

/** The remote as callers see it: never the token, only whether one is stored. */
export async function readGitRemote(db: Database, applicationId: string): Promise<GitRemote> {
  const [row] = await db
    .select()
    .from(gitRemotes)
    .where(eq(gitRemotes.applicationId, applicationId))
  if (!row) return null
  return {
    url: row.url,
    branch: row.branch,
    hasToken: row.tokenCiphertext !== null,
    integration: row.integration,
  }
}

/**
 * Sets the remote; a request without a token keeps the stored one (write-only field), but only
 * while the remote stays on the same origin (scheme, host and port): a remote moved to another
 * host loses its token and its integration unless they are given again, so that no member can
 * send them to a host of their choosing (issue 29, item 15).
 */
export async function writeGitRemote(
  db: Database,
  keyring: VaultKeyring,
  applicationId: string,
  input: GitRemoteRequest,
): Promise<GitRemote> {
  const branch = input.branch ?? DEFAULT_GIT_BRANCH
  const sealed = input.token
    ? sealSecret(keyring.current.key, applicationId, sealedField, input.token)
    : undefined
  await db.transaction(async (transaction) => {
    const [stored] = await transaction
      .select({ url: gitRemotes.url })
      .from(gitRemotes)
      .where(eq(gitRemotes.applicationId, applicationId))
      .for('update')
    const moved = stored !== undefined && originOf(stored.url) !== originOf(input.url)
    const token = sealed
      ? { tokenCiphertext: sealed.ciphertext, tokenIv: sealed.iv, tokenKeyId: keyring.current.id }
      : moved
        ? { tokenCiphertext: null, tokenIv: null, tokenKeyId: null }
        : {}
    const integration =
      input.integration !== undefined
        ? { integration: input.integration }
        : moved
          ? { integration: null }
          : {}
    await transaction
      .insert(gitRemotes)
      .values({ applicationId, url: input.url, branch, ...token, ...integration })
      .onConflictDoUpdate({
        target: gitRemotes.applicationId,
        set: { url: input.url, branch, ...token, ...integration, updatedAt: new Date() },
      })
  })
  return readGitRemote(db, applicationId)
}

/** Scheme, host and port, as git connects to them; a URL that does not parse is its own origin. */
function originOf(url: string): string {
  const text = url.trim()
  return URL.canParse(text) ? new URL(text).origin : `unparsed:${text}`
}

export async function deleteGitRemote(db: Database, applicationId: string) {
  await db.delete(gitRemotes).where(eq(gitRemotes.applicationId, applicationId))
}

/** The remote with its token opened, for the push alone. */
export async function gitRemoteForPush(db: Database, keyring: VaultKeyring, applicationId: string) {
  const [row] = await db
    .select()
    .from(gitRemotes)
    .where(eq(gitRemotes.applicationId, applicationId))
  if (!row) return undefined
  const masterKey = row.tokenKeyId ? keyring.byId.get(row.tokenKeyId) : undefined
  const token =
    masterKey && row.tokenCiphertext && row.tokenIv
      ? openSecret(masterKey, applicationId, sealedField, {
          ciphertext: row.tokenCiphertext,
          iv: row.tokenIv,
        })
      : undefined
  return { url: row.url, branch: row.branch, token, integration: row.integration }
}

/**
 * Key rotation (docs/product/vault.md "Master key"): tokens still sealed under an older key move
 * to VAULT_KEY, as the vault's values do; ones no configured key opens are left alone. Returns
 * how many were sealed again.
 */
export async function resealGitTokens(db: Database, keyring: VaultKeyring): Promise<number> {
  let resealed = 0
  for (const row of await db.select().from(gitRemotes)) {
    const { tokenKeyId, tokenCiphertext, tokenIv } = row
    if (!tokenKeyId || !tokenCiphertext || !tokenIv || tokenKeyId === keyring.current.id) continue
    const olderKey = keyring.byId.get(tokenKeyId)
    if (!olderKey) continue
    const token = openSecret(olderKey, row.applicationId, sealedField, {
      ciphertext: tokenCiphertext,
      iv: tokenIv,
    })
    const sealed = sealSecret(keyring.current.key, row.applicationId, sealedField, token)
    // Only if nobody replaced the token meanwhile (a new one is under VAULT_KEY already).
    await db
      .update(gitRemotes)
      .set({
        tokenCiphertext: sealed.ciphertext,
        tokenIv: sealed.iv,
        tokenKeyId: keyring.current.id,
      })
      .where(and(eq(gitRemotes.applicationId, row.applicationId), eq(gitRemotes.tokenIv, tokenIv)))
    resealed++
  }
  return resealed
}
