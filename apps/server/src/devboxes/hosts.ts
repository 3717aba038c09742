import { boxIdentityKeyFrom } from '@sprout/devbox/egress/box-identity.ts'
import type { AuthCache } from '../auth/auth-cache.ts'
import type { Config } from '../config/config.ts'
import type { ErrorReporting } from '../error-monitoring/service.ts'
import { createAppAccess } from './deploys/app-access.ts'
import { createAppsHost } from './deploys/apps-host.ts'
import type { AppIdentitySigner } from './hand-off/app-identity.ts'
import { createInternalHost } from './internal-host.ts'
import { createPreviewHost, type PreviewHostOptions } from './preview-host/preview-host.ts'

/**
 * The preview origin and the deployed apps' origin, each with the error reporter, and with pods
 * for boxes, sprout.internal as their egress proxy sends it on (decision 039).
 */
export function createHosts(
  input: Omit<PreviewHostOptions, 'errorReporting'> & {
    config: Pick<Config, 'maxBodyBytes' | 'devbox' | 'trustProxy'>
    deploysDir: string
    errorReporting: ErrorReporting
    authCache: Pick<AuthCache, 'onFlush'>
    appIdentity: AppIdentitySigner
  },
) {
  const { db, origins, authSecret, memberships, devboxes, errorReporting } = input
  const { appIdentity } = input
  const access = createAppAccess({ db, memberships, authCache: input.authCache })
  return {
    previewHost: createPreviewHost({
      db,
      origins,
      authSecret,
      memberships,
      devboxes,
      errorReporting,
      identity: { signer: appIdentity, access },
      trustProxy: input.config.trustProxy,
    }),
    appsHost: createAppsHost({
      db,
      origins,
      authSecret,
      access,
      identity: appIdentity,
      deploysDir: input.deploysDir,
      appServers: devboxes.appServers,
      maxBodyBytes: input.config.maxBodyBytes,
      trustProxy: input.config.trustProxy,
      errorReporting,
    }),
    internalHost:
      input.config.devbox.driver === 'kubernetes'
        ? createInternalHost(boxIdentityKeyFrom(authSecret), devboxes)
        : undefined,
  }
}
