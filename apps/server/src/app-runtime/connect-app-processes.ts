import type { AppProcessSupportFor, DevboxRuntime } from '../devboxes/runtime/devbox-runtime.ts'
import type { ErrorReporting } from '../error-monitoring/service.ts'
import { freshAccessToken } from '../integrations/service.ts'
import type { Vault } from '../vault/service.ts'
import type { AppMailRelay } from './app-mail.ts'
import { createAppProcessSupport, reachesSproutInternal } from './app-process-support.ts'
import { createAppTokens } from './app-tokens.ts'
import type { InternalIntegrations } from './internal-requests.ts'

/** Makes the dev boxes with what their processes receive; another app's runtime is kept as is. */
export type DevboxesOption = DevboxRuntime | ((appProcesses: AppProcessSupportFor) => DevboxRuntime)

/**
 * The app's dev boxes, given what the app's dev and production servers receive
 * (app-process-support.ts), and kept in step with the vault: its values reach those servers,
 * restarted on each change (docs/product/vault.md).
 */
export function connectAppProcesses(input: {
  devboxes: DevboxesOption
  vault: Vault
  errorReporting: ErrorReporting
  /** The organization's connections, reached with the app token (decision 019); PUBLIC_URL. */
  integrationDeps: Parameters<typeof freshAccessToken>[0]
  /** The public keys of apps' identity tokens, served at sprout.internal (decision 046). */
  appIdentityKeys: { keys: object[] }
  mail: AppMailRelay
  /** The app's origins (preview and deploy), for SPROUT_APP_ORIGINS. */
  appOrigins: (applicationId: string) => Promise<string[]>
}) {
  const integrations: InternalIntegrations = {
    appIdentityKeys: input.appIdentityKeys,
    mail: input.mail,
    appTokens: createAppTokens(input.integrationDeps.db, input.integrationDeps.keyring),
    accessToken: (organizationId, serviceName) =>
      freshAccessToken(input.integrationDeps, organizationId, serviceName),
  }
  const devboxes =
    typeof input.devboxes === 'function'
      ? input.devboxes((confinement) =>
          createAppProcessSupport({
            vault: input.vault,
            errorReporting: input.errorReporting,
            integrations,
            appOrigins: input.appOrigins,
            publicUrl: input.integrationDeps.publicUrl,
            viaEgress: reachesSproutInternal(confinement),
          }),
        )
      : input.devboxes
  input.vault.onChange((applicationId) => {
    void devboxes.secretsChanged(applicationId).catch((error: Error) => {
      console.error('[vault] the app servers could not take the new secrets:', error.message)
    })
  })
  return { devboxes, integrations, viaEgress: reachesSproutInternal(devboxes.confinement) }
}
