// `npm run vault:rotate`: re-encrypts every vault secret under VAULT_KEY (docs/product/vault.md
// "Master key"). `npm run vault:rotate -- --generate-key` prints a fresh key to rotate to.
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { openDatabase } from '@sprout/db/database.ts'
import { migrateDatabase } from '@sprout/db/migrate.ts'
import { resealAppTokens } from '../apps/server/src/app-runtime/app-token-sealing.ts'
import { ConfigError, parseConfig } from '../apps/server/src/config/config.ts'
import { resealIntegrationSecrets } from '../apps/server/src/integrations/reseal.ts'
import { loadVaultKeyring } from '../apps/server/src/sealing/master-keys.ts'
import { reencryptSecrets } from '../apps/server/src/vault/service.ts'
import { resealGitTokens } from '../apps/server/src/versions/git-remote-store.ts'

const flags = new Set(process.argv.slice(2))

if (flags.has('--generate-key')) {
  console.log(randomBytes(32).toString('base64'))
  console.error(
    'To rotate: set VAULT_KEY to this key and VAULT_KEYS to the current one (for the key file, its content), restart every instance, then run npm run vault:rotate and finally drop VAULT_KEYS.',
  )
  process.exit(0)
}

try {
  const config = parseConfig(process.env)
  if (!config.databaseUrl && !flags.has('--stopped')) {
    console.error(
      'The database is PGlite in DATA_DIR, which only one process may open. Restarting Sprout with the new VAULT_KEY and VAULT_KEYS re-encrypts at start; or stop Sprout and run npm run vault:rotate -- --stopped.',
    )
    process.exit(1)
  }
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite') },
  )
  await migrateDatabase(database)
  const keyring = await loadVaultKeyring(config, database.db)
  const reencrypted = await reencryptSecrets(database.db, keyring)
  const resealed =
    (await resealIntegrationSecrets(database.db, keyring)) +
    (await resealGitTokens(database.db, keyring)) +
    (await resealAppTokens(database.db, keyring))
  await database.close()
  console.log(
    `Re-encrypted ${reencrypted} secret(s) and ${resealed} integration value(s), git token(s) and app token(s); every secret is now under master key ${keyring.current.id}. Keys in VAULT_KEYS are no longer needed.`,
  )
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  console.error(error.message)
  process.exit(1)
}
