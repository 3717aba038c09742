import type { Config } from './config.ts'

/**
 * Where boxes and deploys live: DATA_DIR, or SHARED_DIR when several instances share them
 * (docs/decisions/033-box-leases-and-relay.md).
 */
export function boxesHomeOf(config: Pick<Config, 'dataDir' | 'sharedDir'>) {
  return config.sharedDir ?? config.dataDir
}
