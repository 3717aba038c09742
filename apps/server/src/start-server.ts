import http from 'node:http'
import { type Database, type DatabaseHandle, openDatabase } from '@sprout/db/database.ts'
import { migrateDatabase } from '@sprout/db/migrate.ts'
import { pgliteDataDirIn } from '@sprout/db/pglite-cluster.ts'
import { boxIdentityKeyFrom } from '@sprout/devbox/egress/box-identity.ts'
import { createApp } from './app.ts'
import { resealAppTokens } from './app-runtime/app-token-sealing.ts'
import { loadAuthSecret } from './auth/auth-secret-in-use.ts'
import { endAbandonedChecks } from './checks/service.ts'
import { type Cluster, createCluster, isClustered } from './cluster/cluster.ts'
import type { Config } from './config/config.ts'
import { checkLocalDevboxMachine } from './devboxes/runtime/create-local-runtime.ts'
import type { DevboxRuntime } from './devboxes/runtime/devbox-runtime.ts'
import { createRuntimeOfDriver } from './devboxes/runtime/runtime-of-driver.ts'
import { reporterBundle } from './error-monitoring/reporter/reporter-bundle.ts'
import { trackRequests } from './http/drain-requests.ts'
import { createNodeHandlers } from './http/node-handler.ts'
import { resealIntegrationSecrets } from './integrations/reseal.ts'
import { loadVaultKeyring, type VaultKeyring } from './sealing/master-keys.ts'
import type { Vault } from './vault/service.ts'
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
    // Each box's lease goes as soon as that box is closed: a request relayed to this stopping
    // instance is routed to the next owner within seconds (decision 033).
    stop: () =>
      runtime.stop({ closed: async (applicationId) => await cluster()?.releaseOne(applicationId) }),
  }
}

/**
 * Secrets that do not open what is stored stop the start: the vault's keys
 * (docs/product/vault.md "Master key") and the auth secret with its JWT key
 * (docs/decisions/035-shared-app-tokens-and-auth-secret.md).
 */
async function loadSecrets(config: Config, database: DatabaseHandle) {
  try {
    const authSecret = await loadAuthSecret(config, database.db)
    return { authSecret, vaultKeyring: await loadVaultKeyring(config, database.db) }
  } catch (error) {
    await database.close()
    throw error
  }
}

/** Every sealed value still under an older key moves to VAULT_KEY; each kind moved is logged. */
async function resealUnderVaultKey(vault: Vault, db: Database, keyring: VaultKeyring) {
  const moved = [
    [await vault.reencrypt(), 'vault secret(s)'],
    [await resealIntegrationSecrets(db, keyring), 'integration value(s)'],
    [await resealGitTokens(db, keyring), 'git token(s)'],
    [await resealAppTokens(db, keyring), 'app token(s)'],
  ] as const
  for (const [count, what] of moved) {
    if (count > 0) console.log(`Re-encrypted ${count} ${what} under VAULT_KEY`)
  }
}

/** Opens the database, applies migrations, restores dev boxes and listens; returns a stop function. */
export async function startServer(config: Config, options: { serveWeb: boolean }) {
  // Checked while the database opens; the driver below takes the answers (create-local-runtime.ts).
  const machineChecked =
    config.devbox.driver === 'local' ? checkLocalDevboxMachine(config) : Promise.resolve()
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: pgliteDataDirIn(config.dataDir) },
  )
  await migrateDatabase(database)
  const { authSecret, vaultKeyring } = await loadSecrets(config, database)
  await machineChecked
  let cluster: Cluster | undefined
  const created = createApp({
    config,
    database,
    authSecret,
    devboxes: (appProcesses) =>
      clusteredRuntime(
        createRuntimeOfDriver(config, database.db, {
          appProcesses,
          identityKey: boxIdentityKeyFrom(authSecret),
          // One pool for every instance, refilled by the leader (decision 034).
          sharedPool: isClustered(config)
            ? {
                instanceId: () => cluster?.instanceId,
                isLeader: () => created.leadership.isLeader(),
              }
            : undefined,
        }),
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
  await resealUnderVaultKey(created.vault, database.db, vaultKeyring)
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
  // Files of images whose conversation, application or account was deleted (decision 043), and
  // audit events past their retention (docs/product/audit.md).
  for (const sweeper of [created.images, created.audit]) sweeper.start()
  const handlers = createNodeHandlers({ ...created, relay: cluster?.relay })
  const server = http.createServer(handlers.request)
  server.on('upgrade', handlers.upgrade)
  const requests = trackRequests(server)
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
      // Half of main.ts's 10 s: the boxes' stop comes after.
      await requests.drain(5000)
      await created.evaluations.stop()
      await created.mailer.stop()
      for (const sweeper of [created.images, created.audit]) sweeper.stop()
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
