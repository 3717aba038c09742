import { createHash } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { appRuntimeTokens } from '@sprout/db/schema/app-runtime-tokens.ts'
import { and, eq, isNotNull } from 'drizzle-orm'
import type { VaultKeyring } from '../sealing/master-keys.ts'
import { openSecret, sealSecret } from '../sealing/secret-sealing.ts'

/** The associated data's field: a sealed app token opens only as its own application's token. */
const sealedField = 'app_token'

export const hashOfAppToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** `{keyId}.{iv}.{ciphertext}` in one column (base64 and hex hold no dot). */
export function sealAppToken(keyring: VaultKeyring, applicationId: string, token: string): string {
  const sealed = sealSecret(keyring.current.key, applicationId, sealedField, token)
  return [keyring.current.id, sealed.iv, sealed.ciphertext].join('.')
}

/** Raised when no configured vault key is the one a token was sealed with (a rotation half done). */
export class UnknownAppTokenKey extends Error {
  override name = 'UnknownAppTokenKey'
}

/**
 * The token in `sealedToken`, or undefined when it does not open as this application's token
 * whose hash is `tokenHash` (altered, moved from another row, or left by an older version that
 * replaced the hash alone). Throws UnknownAppTokenKey when no configured key sealed it.
 */
export function openAppToken(
  keyring: VaultKeyring,
  row: { applicationId: string; tokenHash: string; sealedToken: string },
): string | undefined {
  const [keyId, iv, ciphertext, extra] = row.sealedToken.split('.')
  if (!keyId || !iv || !ciphertext || extra !== undefined) return undefined
  const key = keyring.byId.get(keyId)
  if (!key) {
    throw new UnknownAppTokenKey(
      `The app token of application ${row.applicationId} is sealed with vault key ${keyId}, which is neither VAULT_KEY nor in VAULT_KEYS`,
    )
  }
  try {
    const token = openSecret(key, row.applicationId, sealedField, { iv, ciphertext })
    return hashOfAppToken(token) === row.tokenHash ? token : undefined
  } catch {
    return undefined
  }
}

/**
 * Key rotation (docs/product/vault.md "Master key"): app tokens still sealed under an older key
 * move to VAULT_KEY, as the vault's values do; ones no configured key opens are left alone.
 * Returns how many were sealed again.
 */
export async function resealAppTokens(db: Database, keyring: VaultKeyring): Promise<number> {
  let resealed = 0
  const rows = await db
    .select()
    .from(appRuntimeTokens)
    .where(isNotNull(appRuntimeTokens.sealedToken))
  for (const row of rows) {
    const sealedToken = row.sealedToken as string
    if (sealedToken.startsWith(`${keyring.current.id}.`)) continue
    let token: string | undefined
    try {
      token = openAppToken(keyring, { ...row, sealedToken })
    } catch {
      continue
    }
    if (!token) continue
    // Only if nobody replaced the token meanwhile.
    const updated = await db
      .update(appRuntimeTokens)
      .set({ sealedToken: sealAppToken(keyring, row.applicationId, token) })
      .where(
        and(
          eq(appRuntimeTokens.applicationId, row.applicationId),
          eq(appRuntimeTokens.sealedToken, sealedToken),
        ),
      )
      .returning({ applicationId: appRuntimeTokens.applicationId })
    resealed += updated.length
  }
  return resealed
}
