import { boxIdentityKeyFrom } from '@sprout/devbox/egress/box-identity.ts'
import type { Config } from '../config/config.ts'
import type { ErrorReporting } from '../error-monitoring/service.ts'
import { createAppsHost } from './deploys/apps-host.ts'
import { createInternalHost } from './internal-host.ts'
import { createPreviewHost, type PreviewHostOptions } from './preview-host/preview-host.ts'

/**
 * The preview origin and the deployed apps' origin, each with the error reporter, and with pods
 * for boxes, sprout.internal as their egress proxy sends it on (decision 039).
 */
export function createHosts(
  input: Omit<PreviewHostOptions, 'errorReporting'> & {
    config: Pick<Config, 'maxBodyBytes' | 'devbox'>
    deploysDir: string
    errorReporting: ErrorReporting
  },
) {
  const { db, origins, authSecret, memberships, devboxes, errorReporting } = input
  return {
    previewHost: createPreviewHost({
      db,
      origins,
      authSecret,
      memberships,
      devboxes,
      errorReporting,
    }),
    appsHost: createAppsHost({
      db,
      deploysDir: input.deploysDir,
      appServers: devboxes.appServers,
      maxBodyBytes: input.config.maxBodyBytes,
      errorReporting,
    }),
    internalHost:
      input.config.devbox.driver === 'kubernetes'
        ? createInternalHost(boxIdentityKeyFrom(authSecret), devboxes)
        : undefined,
  }
}
