import path from 'node:path'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import { createAppMailRelay } from './app-runtime/app-mail.ts'
import { connectAppProcesses, type DevboxesOption } from './app-runtime/connect-app-processes.ts'
import { findApplicationSlug } from './applications/service.ts'
import { createAuditLog } from './audit/audit-log.ts'
import { createAuth } from './auth/auth.ts'
import { createAuthCache } from './auth/auth-cache.ts'
import { createSetupLink } from './auth/setup-link.ts'
import { createSignUpRules } from './auth/sign-up-rules.ts'
import { createSingleSignOn } from './auth/single-sign-on-settings.ts'
import { createUserStreams } from './auth/user-streams.ts'
import { createLeadership } from './cluster/leader.ts'
import { boxesHomeOf } from './config/boxes-home.ts'
import type { Config } from './config/config.ts'
import { createAppIdentitySigner } from './devboxes/hand-off/app-identity.ts'
import { createErrorMonitoring } from './error-monitoring/error-monitoring.ts'
import { createPreviewModuleReader } from './error-monitoring/preview-modules.ts'
import { createSymbolicator } from './error-monitoring/symbolicate.ts'
import { createEvaluationRunner } from './evaluations/runner.ts'
import { createOrigins } from './http/origins.ts'
import { createImages } from './images/images.ts'
import type { IntegrationDeps } from './integrations/definitions.ts'
import { createRefreshFlights } from './integrations/refresh-flights.ts'
import { createMailer } from './mail/mailer.ts'
import { createConversationRuntime } from './runs/service.ts'
import type { VaultKeyring } from './sealing/master-keys.ts'
import { createInstallationSettings } from './settings/installation-settings.ts'
import { createVault } from './vault/service.ts'

export type AppOptions = {
  config: Config
  database: DatabaseHandle
  /** Signs sessions and tokens; AUTH_SECRET or the key file in DATA_DIR. */
  authSecret: string
  /**
   * Makes the dev boxes, given what the app's processes receive (app-runtime/); or the runtime
   * of another app on the same database (tests of two server processes), kept as it is.
   */
  devboxes: DevboxesOption
  /** The vault's master keys (sealing/master-keys.ts: VAULT_KEY, or the key file in DATA_DIR). */
  vaultKeyring: VaultKeyring
  /** Serve the built SPA (production); tests leave it off. */
  serveWeb?: boolean
}

/** Every area of the product, created in the order they need each other. */
export type Areas = ReturnType<typeof createAreas>

export function createAreas({ config, database, authSecret, vaultKeyring, devboxes }: AppOptions) {
  const db = database.db
  // The one instance that runs the singletons acting on shared rows: stale runs and evaluations
  // here; the pool's refill and idle sweeps are to ask `leadership.isLeader()` (decision 032).
  const leadership = createLeadership(database)
  const deploysDir = path.join(boxesHomeOf(config), 'deploys')
  const origins = createOrigins(config)
  const settings = createInstallationSettings(db)
  const mailer = createMailer({ database, config })
  const signUpRules = createSignUpRules({ db, settings, config })
  const setupLink = createSetupLink({ db, settings })
  const userStreams = createUserStreams(database)
  const secret = authSecret
  const auth = createAuth({ config, db, secret, mailer, signUpRules, setupLink, userStreams })
  const authCache = createAuthCache(database)
  // docs/product/auth.md "Single sign-on": the admin's configuration over OIDC_*.
  const singleSignOn = createSingleSignOn({ auth, settings, keyring: vaultKeyring, config })
  const vault = createVault({ database, keyring: vaultKeyring })
  // docs/product/integrations.md; its secrets are sealed with the vault's keys (decision 018).
  const integrationDeps: IntegrationDeps = {
    db,
    keyring: vaultKeyring,
    publicUrl: origins.product,
    pickerScriptUrl: config.googlePickerScriptUrl,
    refreshFlights: createRefreshFlights(database),
  }
  const { errorIngest, errorReporting } = createErrorMonitoring({
    db,
    config,
    publicUrl: origins.product,
    redact: vault.redact,
    symbolicate: createSymbolicator(
      deploysDir,
      createPreviewModuleReader((applicationId) =>
        appProcesses.devboxes.devServerTarget(applicationId),
      ),
    ),
  })
  // Signs who calls an app, for the apps and preview hosts; its keys are served to apps (decision 046).
  const appIdentity = createAppIdentitySigner(authSecret, origins.product)
  const appProcesses = connectAppProcesses({
    devboxes,
    vault,
    errorReporting,
    integrationDeps,
    appIdentityKeys: appIdentity.jwks,
    mail: createAppMailRelay({ db, mailer }),
    appOrigins: async (applicationId) => {
      const slug = await findApplicationSlug(db, applicationId)
      return slug ? [origins.preview(slug), origins.apps(slug)] : []
    },
  })
  const conversations = createConversationRuntime({
    database,
    config,
    devboxes: appProcesses.devboxes,
    secrets: vault.runSecrets,
    leadership,
  })
  const images = createImages({ db, config, leadership })
  const evaluations = createEvaluationRunner({
    db,
    providers: config.providers,
    leadership,
    singleProcess: database.kind === 'pglite',
  })
  return {
    database,
    db,
    config,
    leadership,
    deploysDir,
    origins,
    settings,
    mailer,
    signUpRules,
    setupLink,
    singleSignOn,
    auth,
    authCache,
    // docs/product/audit.md: who did what; the leader removes events past AUDIT_RETENTION_DAYS.
    audit: createAuditLog({ db, retentionDays: config.auditRetentionDays, leadership }),
    userStreams,
    memberships: authCache.memberships,
    appIdentity,
    vault,
    integrationDeps,
    errorIngest,
    errorReporting,
    ...appProcesses,
    conversations,
    evaluations,
    images,
  }
}
