import { randomUUID } from 'node:crypto'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import type { Config } from '../config/config.ts'
import type { Origins } from '../http/origins.ts'
import { createApplicationOfRequest } from './application-of-request.ts'
import { type BoxLeaseTimes, createBoxLeases, defaultLeaseTimes } from './box-leases.ts'
import type { TunnelEndpointOptions } from './dev-server-tunnel.ts'
import { type ClusterInstance, internalUrlOf, registerInstance } from './instances.ts'
import { createRelay } from './relay.ts'
import { relayKeyFrom } from './relay-signature.ts'

/** What the cluster needs of the dev boxes: to learn of a box it took, and to stop one it lost. */
type OwnedBoxes = {
  adopt: (applicationId: string) => Promise<void>
  release: (applicationId: string) => Promise<void>
} & ReturnType<TunnelEndpointOptions['devboxes']>

export type Cluster = ReturnType<typeof createCluster>

/** Whether this instance is one of several: DATABASE_URL and SHARED_DIR (decision 033). */
export function isClustered(config: Pick<Config, 'databaseUrl' | 'sharedDir'>) {
  return Boolean(config.databaseUrl && config.sharedDir)
}

/**
 * One instance of several (docs/decisions/033-box-leases-and-relay.md): its row, the leases of
 * the boxes it runs, and the relay of other boxes' requests to their owners.
 */
export function createCluster(options: {
  config: Pick<Config, 'vaultKey'>
  database: DatabaseHandle
  origins: Origins
  boxes: () => OwnedBoxes
  leaseTimes?: BoxLeaseTimes
}) {
  const { database } = options
  if (!options.config.vaultKey) throw new Error('Several instances need VAULT_KEY')
  const instanceId = randomUUID()
  const leases = createBoxLeases(database, instanceId, options.leaseTimes ?? defaultLeaseTimes)
  leases.onLost((applicationId) => options.boxes().release(applicationId))
  const relay = createRelay({
    instanceId,
    key: relayKeyFrom(options.config.vaultKey),
    leases,
    applicationOf: createApplicationOfRequest(database.db, options.origins),
    acquired: (applicationId) => options.boxes().adopt(applicationId),
    devboxes: options.boxes,
  })
  let instance: ClusterInstance | undefined
  return {
    instanceId,
    leases,
    relay,
    /** A new application's box starts here: this instance takes its lease first. */
    takeNew: async (applicationId: string) => {
      await leases.take(applicationId)
    },
    /** Once listening: the row the others find this instance by, and the leases' renewals. */
    start: async (host: string | undefined, port: number) => {
      instance = await registerInstance(database, instanceId, internalUrlOf(host, port))
      leases.start()
    },
    /** One box was closed at a stop: its lease goes now, before the other boxes are closed. */
    releaseOne: (applicationId: string) =>
      leases.releaseOne(applicationId).catch((error: Error) => {
        console.error('[cluster] releasing a box lease failed:', error.message)
      }),
    /** After the boxes stopped: their leases go at once, then the row. */
    stop: async () => {
      relay.close()
      leases.stop()
      await leases.release().catch((error: Error) => {
        console.error('[cluster] releasing box leases failed:', error.message)
      })
      await instance?.stop()
    },
  }
}
