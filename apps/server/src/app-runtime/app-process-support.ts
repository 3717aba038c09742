import type { DevboxConfinement } from '@sprout/protocol/api/applications.ts'
import type { AppProcessSupport } from '../devboxes/runtime/devbox-runtime.ts'
import type { ErrorReporting } from '../error-monitoring/service.ts'
import type { Vault } from '../vault/service.ts'
import {
  handleInternalRequest,
  type InternalIntegrations,
  internalDsn,
} from './internal-requests.ts'

/**
 * Whether the boxes reach `http://sprout.internal`: without a network of their own (no root,
 * DEVBOX_SANDBOX=off) they have no egress proxy to answer it, and reach PUBLIC_URL like any
 * host process.
 */
export function reachesSproutInternal(confinement: DevboxConfinement | undefined): boolean {
  return !confinement?.enforcement.network.startsWith('not enforced')
}

/**
 * What an app's servers receive: the vault's values, SENTRY_DSN
 * (docs/architecture/devbox.md "Error reports"), SPROUT_APP_TOKEN, SPROUT_INTERNAL_URL, SPROUT_APP_ORIGINS (decision
 * 019), and the answers to their sprout.internal requests.
 */
export function createAppProcessSupport(input: {
  vault: Pick<Vault, 'secretsOf'>
  errorReporting: ErrorReporting
  integrations: InternalIntegrations
  appOrigins: (applicationId: string) => Promise<string[]>
  /** PUBLIC_URL, reached instead of sprout.internal by boxes without an egress proxy. */
  publicUrl: string
  viaEgress: boolean
}): AppProcessSupport {
  const { vault, errorReporting, integrations, publicUrl, viaEgress } = input
  return {
    environmentFor: async (applicationId) => {
      const dsn = await errorReporting.dsnFor(applicationId)
      return {
        ...(await vault.secretsOf(applicationId)),
        ...(dsn ? { SENTRY_DSN: viaEgress ? internalDsn(dsn) : dsn } : {}),
        SPROUT_APP_TOKEN: await integrations.appTokens.tokenFor(applicationId),
        SPROUT_INTERNAL_URL: viaEgress ? 'http://sprout.internal' : `${publicUrl}/internal`,
        // The exact origins the app is served at: the starter's auth kit trusts these alone.
        SPROUT_APP_ORIGINS: (await input.appOrigins(applicationId)).join(','),
      }
    },
    handleInternalRequest: (applicationId, request, response) =>
      handleInternalRequest(applicationId, request, response, errorReporting, integrations),
  }
}
