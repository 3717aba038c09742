import { createHash } from 'node:crypto'
import { access } from 'node:fs/promises'
import path from 'node:path'
import type { Database } from '@sprout/db/database.ts'
import { vaultSecrets } from '@sprout/db/schema/vault-secrets.ts'
import { count, eq } from 'drizzle-orm'
import { type Config, ConfigError } from '../config/config.ts'
import { loadOrCreateKeyFile } from '../config/key-file.ts'
import { openSecret } from './secret-sealing.ts'

export const VAULT_KEY_FILE = 'vault-key'

export type MasterKey = { id: string; key: Buffer }

/** The key that encrypts, and every key that may still decrypt (docs/product/vault.md "Master key"). */
export type VaultKeyring = {
  current: MasterKey
  byId: ReadonlyMap<string, Buffer>
  /** Where the current key came from, for start-up errors. */
  source: string
}

/** A key's id is a hash prefix of it: rows name their key without storing anything secret. */
export function masterKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16)
}

function decodeMasterKey(base64: string, source: string): MasterKey {
  const key = Buffer.from(base64.trim(), 'base64')
  if (key.length !== 32) {
    throw new ConfigError(`${source} is not a vault key: it must be the base64 of 32 random bytes`)
  }
  return { id: masterKeyId(key), key }
}

export function createKeyring(
  current: string,
  older: string[],
  source = 'VAULT_KEY',
): VaultKeyring {
  const currentKey = decodeMasterKey(current, source)
  const byId = new Map<string, Buffer>([[currentKey.id, currentKey.key]])
  for (const base64 of older) {
    const olderKey = decodeMasterKey(base64, 'VAULT_KEYS')
    byId.set(olderKey.id, olderKey.key)
  }
  return { current: currentKey, byId, source }
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  )
}

async function keyIdsInUse(db: Database): Promise<{ keyId: string; secrets: number }[]> {
  return db
    .select({ keyId: vaultSecrets.keyId, secrets: count() })
    .from(vaultSecrets)
    .groupBy(vaultSecrets.keyId)
}

/**
 * The master keys from VAULT_KEY (or the key file in DATA_DIR, created on first use) and
 * VAULT_KEYS. Refuses to start — a ConfigError naming what to set — when the database holds
 * secrets no configured key can read: secrets are never silently unreadable.
 */
export async function loadVaultKeyring(config: Config, db: Database): Promise<VaultKeyring> {
  const inUse = await keyIdsInUse(db)
  const stored = inUse.reduce((total, row) => total + row.secrets, 0)
  let keyring: VaultKeyring
  if (config.vaultKey) {
    keyring = createKeyring(config.vaultKey, config.vaultKeys, 'VAULT_KEY')
  } else {
    const file = path.join(config.dataDir, VAULT_KEY_FILE)
    if (stored > 0 && config.vaultKeys.length === 0 && !(await exists(file))) {
      throw new ConfigError(
        `The vault holds ${stored} secret(s), but VAULT_KEY is not set and the key file ${file} is missing: set VAULT_KEY to the key they were encrypted with (key id ${inUse[0]?.keyId}), or restore the file.`,
      )
    }
    const content = await loadOrCreateKeyFile(config.dataDir, VAULT_KEY_FILE)
    keyring = createKeyring(content, config.vaultKeys, `the key file ${file}`)
  }
  for (const { keyId, secrets } of inUse) {
    if (!keyring.byId.has(keyId)) {
      throw new ConfigError(
        `The vault holds ${secrets} secret(s) encrypted with master key ${keyId}, which is neither the current key (${keyring.current.id}, from ${keyring.source}) nor in VAULT_KEYS: set VAULT_KEY to the key they were encrypted with, or add it to VAULT_KEYS. Starting without it would leave them unreadable.`,
      )
    }
    await assertReadable(db, keyring, keyId)
  }
  return keyring
}

/** One row per key id is decrypted at start: a damaged key or table shows now, not on first use. */
async function assertReadable(db: Database, keyring: VaultKeyring, keyId: string) {
  const [row] = await db.select().from(vaultSecrets).where(eq(vaultSecrets.keyId, keyId)).limit(1)
  const key = keyring.byId.get(keyId)
  if (!row || !key) return
  try {
    openSecret(key, row.applicationId, row.key, row)
  } catch {
    throw new ConfigError(
      `The vault's secret ${row.key} (application ${row.applicationId}) does not decrypt with master key ${keyId}: the key or the stored value has been altered.`,
    )
  }
}
