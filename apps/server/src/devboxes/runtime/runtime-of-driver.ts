import type { Database } from '@sprout/db/database.ts'
import type { Config } from '../../config/config.ts'
import { createKubernetesDevboxRuntime } from './create-kubernetes-runtime.ts'
import { createLocalDevboxRuntime } from './create-local-runtime.ts'

/**
 * The runtime of DEVBOX_DRIVER: local boxes, or pods (decision 037). Local boxes take no notice
 * of the cluster's options.
 */
export function createRuntimeOfDriver(
  config: Config,
  db: Database,
  options: Parameters<typeof createKubernetesDevboxRuntime>[2],
) {
  return config.devbox.driver === 'kubernetes'
    ? createKubernetesDevboxRuntime(config, db, options)
    : createLocalDevboxRuntime(config, db, options)
}
