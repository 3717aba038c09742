import path from 'node:path'
import type { Database } from '@sprout/db/database.ts'
import { jwks } from '@sprout/db/schema/auth.ts'
import { symmetricDecrypt } from 'better-auth/crypto'
import { eq } from 'drizzle-orm'
import { authSecretFrom } from '../config/auth-secret.ts'
import { type Config, ConfigError } from '../config/config.ts'
import { loadOrCreateKeyFile } from '../config/key-file.ts'

export const AUTH_SECRET_FILE = 'auth-secret'

type SecretSettings = Pick<
  Config,
  'authSecret' | 'sharedDir' | 'vaultKey' | 'vaultKeys' | 'dataDir'
>
type JwtKey = typeof jwks.$inferSelect

const isDerived = (config: SecretSettings) =>
  Boolean(
    config.sharedDir && config.vaultKey && config.authSecret === authSecretFrom(config.vaultKey),
  )

function sourceOf(config: SecretSettings) {
  if (!config.authSecret) return `the key file ${path.join(config.dataDir, AUTH_SECRET_FILE)}`
  return isDerived(config) ? 'derived from VAULT_KEY (SHARED_DIR set)' : 'AUTH_SECRET'
}

const opens = (secret: string, key: JwtKey) =>
  symmetricDecrypt({ key: secret, data: JSON.parse(key.privateKey) as string }).then(
    () => true,
    () => false,
  )

/**
 * VAULT_KEY rotated under a derived secret: the JWT keys sealed with the old one's are deleted
 * (a new one is made on the next token); the sessions it signed end with it (decision 035).
 */
async function dropKeysOfRotatedVaultKey(config: SecretSettings, db: Database, secret: string) {
  if (!isDerived(config)) return false
  const older = config.vaultKeys.map(authSecretFrom)
  const stale: JwtKey[] = []
  for (const key of await db.select().from(jwks)) {
    if (await opens(secret, key)) continue
    // Sealed under a secret no key of VAULT_KEYS gives: not a rotation, the start is refused.
    const fromOlder = await Promise.all(older.map((olderSecret) => opens(olderSecret, key)))
    if (!fromOlder.includes(true)) return false
    stale.push(key)
  }
  for (const key of stale) await db.delete(jwks).where(eq(jwks.id, key.id))
  console.log(
    `VAULT_KEY was rotated: deleted ${stale.length} JWT key(s) sealed with the auth secret derived from the old key; sessions signed with it have ended`,
  )
  return true
}

/** The key better-auth signs JWTs with now: the newest one not expired (its jwt plugin's choice). */
async function currentJwtKey(db: Database) {
  const now = new Date()
  const keys = await db.select().from(jwks)
  return keys
    .filter((key) => !key.expiresAt || key.expiresAt > now)
    .sort((first, second) => second.createdAt.getTime() - first.createdAt.getTime())[0]
}

/**
 * The secret better-auth signs sessions and seals its JWT key with: AUTH_SECRET, derived from
 * VAULT_KEY with SHARED_DIR (config.ts), or the key file in DATA_DIR. A secret that does not open
 * the stored JWT key would fail every chat stream's token: the start is refused instead, naming
 * the fix, as the vault's keys are (docs/decisions/035-shared-app-tokens-and-auth-secret.md).
 */
export async function loadAuthSecret(config: SecretSettings, db: Database): Promise<string> {
  const secret = config.authSecret ?? (await loadOrCreateKeyFile(config.dataDir, AUTH_SECRET_FILE))
  const key = await currentJwtKey(db)
  if (!key || (await opens(secret, key))) return secret
  if (!(await dropKeysOfRotatedVaultKey(config, db, secret))) {
    throw new ConfigError(
      `The auth secret in use (${sourceOf(config)}) does not open the key that signs chat streams' tokens (table jwks, key ${key.id}): it was sealed under another secret, such as the DATA_DIR/${AUTH_SECRET_FILE} file of the single instance that ran before SHARED_DIR was set. Set AUTH_SECRET to that secret on every instance (sessions stay valid), or delete the rows of jwks (everyone signs in again).`,
    )
  }
  return secret
}
