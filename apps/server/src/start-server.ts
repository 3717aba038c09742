import http from 'node:http'
import { openDatabase } from '@sprout/db/database.ts'
import { migrateDatabase } from '@sprout/db/migrate.ts'
import { pgliteDataDirIn } from '@sprout/db/pglite-cluster.ts'
import { createApp } from './app.ts'
import { endAbandonedChecks } from './checks/service.ts'
import { type Cluster, createCluster, isClustered } from './cluster/cluster.ts'
import type { Config } from './config/config.ts'
import { loadOrCreateKeyFile } from './config/key-file.ts'
import {
  checkLocalDevboxMachine,
  createLocalDevboxRuntime,
} from './devboxes/runtime/create-local-runtime.ts'
import type { DevboxRuntime } from './devboxes/runtime/devbox-runtime.ts'
import { reporterBundle } from './error-monitoring/reporter/reporter-bundle.ts'
import { createNodeHandlers } from './http/node-handler.ts'
import { resealIntegrationSecrets } from './integrations/reseal.ts'
import { loadVaultKeyring } from './sealing/master-keys.ts'
import { flushAllHandEdits } from './versions/edit-versions.ts'
import { resealGitTokens } from './versions/git-remote-store.ts'

/** A new application's box starts where it was created, under this instance's lease (decision 033). */
function clusteredRuntime(
  runtime: DevboxRuntime,
  cluster: (() => Cluster | undefined) | undefined,
): DevboxRuntime {
  if (!cluster) return runtime
  return {
    ...runtime,
    attach: async (applicationId, packType) => {
      await cluster()?.takeNew(applicationId)
      return runtime.attach(applicationId, packType)
    },
  }
}

/** Opens the database, applies migrations, restores dev boxes and listens; returns a stop function. */
export async function startServer(config: Config, options: { serveWeb: boolean }) {
  // Checked while the database opens; the driver below takes the answers (create-local-runtime.ts).
  const machineChecked = checkLocalDevboxMachine(config)
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: pgliteDataDirIn(config.dataDir) },
  )
  await migrateDatabase(database)
  const authSecret = config.authSecret ?? (await loadOrCreateKeyFile(config.dataDir, 'auth-secret'))
  // A vault no configured key can read stops the start (docs/product/vault.md "Master key").
  const vaultKeyring = await loadVaultKeyring(config, database.db).catch(async (error) => {
    await database.close()
    throw error
  })
  await machineChecked
  let cluster: Cluster | undefined
  const created = createApp({
    config,
    database,
    authSecret,
    devboxes: (appProcesses) =>
      clusteredRuntime(
        createLocalDevboxRuntime(config, database.db, { appProcesses }),
        isClustered(config) ? () => cluster : undefined,
      ),
    vaultKeyring,
    serveWeb: options.serveWeb,
  })
  const { devboxes } = created
  // Several instances (docs/decisions/033-box-leases-and-relay.md); one: nothing of it runs.
  if (isClustered(config)) {
    cluster = createCluster({ config, database, origins: created.origins, boxes: () => devboxes })
  }
  // Key rotation (docs/product/vault.md "Master key"): values still under a key from VAULT_KEYS
  // move to VAULT_KEY at start; both keys stay readable, so other instances keep working.
  const reencrypted = await created.vault.reencrypt()
  if (reencrypted > 0) console.log(`Re-encrypted ${reencrypted} vault secret(s) under VAULT_KEY`)
  const resealed = await resealIntegrationSecrets(database.db, vaultKeyring)
  if (resealed > 0) console.log(`Re-encrypted ${resealed} integration value(s) under VAULT_KEY`)
  const gitTokens = await resealGitTokens(database.db, vaultKeyring)
  if (gitTokens > 0) console.log(`Re-encrypted ${gitTokens} git token(s) under VAULT_KEY`)
  await created.authCache.start()
  await created.userStreams.start()
  // The admin's single sign-on, stored over OIDC_* (docs/product/auth.md "Single sign-on").
  await created.singleSignOn.start()
  await created.vault.start()
  // Before the parts that ask it, so a lone instance sweeps at once (docs/decisions/032-one-leader.md).
  await created.leadership.start()
  await created.conversations.start()
  // A check a stopped server left running reads as stopped (docs/product/checks.md).
  await endAbandonedChecks(database.db)
  // Evaluations a stopped or dead instance left go on, by the leader (decisions 020 and 032).
  await created.evaluations.startHeartbeat()
  // Mail left pending by the last run goes out now (docs/product/mail.md "Outbox").
  created.mailer.start()
  const handlers = createNodeHandlers({ ...created, relay: cluster?.relay })
  const server = http.createServer(handlers.request)
  server.on('upgrade', handlers.upgrade)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => resolve())
  })
  await cluster?.start(config.host, (server.address() as { port: number }).port)
  // Dev boxes come back after the server answers, so start-up is not held up by dev servers.
  await devboxes.start()
  // The pages' error reporter is bundled once, now rather than on the first page (decision 016).
  void reporterBundle().catch((error: Error) => {
    console.error('[errors] the error reporter could not be bundled:', error.message)
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  // docs/product/auth.md "The first admin": the link that hands a fresh install to its owner.
  const setupUrl = await created.setupLink.prepare(config.publicUrl)
  if (setupUrl) console.log(`No admin yet. Open ${setupUrl} to create the admin account.`)
  return {
    port,
    database,
    devboxes,
    created,
    cluster,
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      await created.evaluations.stop()
      await created.mailer.stop()
      await created.conversations.stop()
      await created.leadership.stop()
      await flushAllHandEdits()
      await devboxes.stop()
      // After the boxes stopped: another instance may open them now (decision 033).
      await cluster?.stop()
      await created.authCache.stop()
      await created.userStreams.stop()
      await created.vault.stop()
      await created.errorIngest.stop()
      await database.close()
    },
  }
}
