// Long file: the composition root, every area created and mounted in the order requests meet them.
import path from 'node:path'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import { Hono } from 'hono'
import { adminRoutes } from './admin/routes.ts'
import type { AppEnv } from './app-env.ts'
import { createAppTokens } from './app-runtime/app-tokens.ts'
import { appRuntimeRoutes } from './app-runtime/routes.ts'
import { applicationRoutes } from './applications/routes.ts'
import { createAuth } from './auth/auth.ts'
import { createAuthCache } from './auth/auth-cache.ts'
import { isAllowedAuthEndpoint, stripSessionTokens } from './auth/auth-endpoints.ts'
import { rateLimit } from './auth/rate-limit.ts'
import { findSession, requireSession } from './auth/require-session.ts'
import type { Config } from './config/config.ts'
import { conversationListenRoutes } from './conversations/listen-routes.ts'
import { conversationRoutes } from './conversations/routes.ts'
import { stopApplicationRuns } from './conversations/service.ts'
import { createAppsHost } from './devboxes/deploys/apps-host.ts'
import { createSymbolicator } from './devboxes/deploys/symbolicate.ts'
import { devboxAuthRoutes } from './devboxes/hand-off/routes.ts'
import { poolRoutes } from './devboxes/pool/routes.ts'
import { createPreviewHost } from './devboxes/preview-host/preview-host.ts'
import { createErrorReporting } from './devboxes/reporter/error-reporting.ts'
import {
  handleInternalRequest,
  type InternalIntegrations,
  internalDsn,
} from './devboxes/reporter/internal-requests.ts'
import type { ErrorReporting } from './devboxes/reporter/reporter-routes.ts'
import type { DevboxRuntime } from './devboxes/runtime/devbox-runtime.ts'
import { errorIngestRoutes, errorMonitoringRoutes } from './error-monitoring/routes.ts'
import { createErrorIngest } from './error-monitoring/service.ts'
import { notFound } from './errors/app-error.ts'
import { onError } from './errors/on-error.ts'
import { evaluationRoutes } from './evaluations/routes.ts'
import { createEvaluationRunner } from './evaluations/runner.ts'
import { explorationRoutes } from './explorations/routes.ts'
import { CachedRouter } from './http/cached-router.ts'
import { createOrigins, untrustedOriginMessage } from './http/origins.ts'
import {
  checkAuthBodies,
  limitRequestBody,
  refuseUnsafeInput,
  withErrorBody,
} from './http/request-guards.ts'
import { requireSameOriginForCookieWrites } from './http/same-origin.ts'
import { securityHeaders } from './http/security-headers.ts'
import { webAssets } from './http/web-assets.ts'
import type { IntegrationDeps } from './integrations/definitions.ts'
import {
  adminIntegrationRoutes,
  integrationRoutes,
  oauthCallbackRoutes,
} from './integrations/routes.ts'
import { freshAccessToken } from './integrations/service.ts'
import { modelRoutes } from './models/routes.ts'
import { organizationRoutes } from './organizations/routes.ts'
import { createConversationRuntime } from './runs/service.ts'
import { vaultRoutes } from './vault/routes.ts'
import { createVault, type Vault, type VaultKeyring } from './vault/service.ts'

export type AppOptions = {
  config: Config
  database: DatabaseHandle
  /** Signs sessions and tokens; AUTH_SECRET or the key file in DATA_DIR. */
  authSecret: string
  devboxes: DevboxRuntime
  /** The vault's master keys (vault/vault-keys.ts: VAULT_KEY, or the key file in DATA_DIR). */
  vaultKeyring: VaultKeyring
  /** Serve the built SPA (production); tests leave it off. */
  serveWeb?: boolean
}

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the product's wiring, every area mounted in the order requests meet them
export function createApp({
  config,
  database,
  authSecret,
  devboxes,
  vaultKeyring,
  serveWeb = false,
}: AppOptions) {
  const db = database.db
  const deploysDir = path.join(config.dataDir, 'deploys')
  const origins = createOrigins(config)
  const auth = createAuth({ config, db, secret: authSecret })
  const authCache = createAuthCache(database)
  const vault = createVault({ database, keyring: vaultKeyring })
  // docs/product/integrations.md; its secrets are sealed with the vault's keys (decision 018).
  const integrationDeps: IntegrationDeps = {
    db,
    keyring: vaultKeyring,
    publicUrl: origins.product,
    pickerScriptUrl: config.googlePickerScriptUrl,
  }
  const conversations = createConversationRuntime({
    database,
    config,
    devboxes,
    secrets: vault.runSecrets,
  })
  const evaluations = createEvaluationRunner({ db, providers: config.providers })
  const { errorIngest, errorReporting } = createErrorMonitoring({
    db,
    config,
    vault,
    deploysDir,
    publicUrl: origins.product,
  })
  // The app's servers reach the organization's connections with their app token (decision 019).
  const integrations: InternalIntegrations = {
    appTokens: createAppTokens(db),
    accessToken: (organizationId, serviceName) =>
      freshAccessToken(integrationDeps, organizationId, serviceName),
  }
  const { viaEgress } = connectVaultToServers(vault, devboxes, errorReporting, {
    ...integrations,
    publicUrl: origins.product,
  })
  const app = new Hono<AppEnv>({ router: new CachedRouter() })
  app.onError(onError)

  // Preview and deploy hosts never reach the product's routes or cookies.
  app.use('*', async (context, next) => {
    if (origins.hostKind(context.req.header('host')) !== 'product') {
      return context.json({ error: 'Not found' }, 404)
    }
    await next()
  })
  app.use('*', securityHeaders(origins, { pickerScriptUrl: config.googlePickerScriptUrl }))
  // Sentry envelopes: binary, often compressed, with limits of their own (error-monitoring/envelope.ts).
  app.route('/', errorIngestRoutes(errorIngest))
  app.use('*', limitRequestBody(config.maxBodyBytes))
  app.use('/api/*', refuseUnsafeInput)
  if (!viaEgress) app.route('/', appRuntimeRoutes(integrations))
  app.get('/healthz', async (context) => {
    await database.execute('select 1')
    return context.json({ status: 'ok' })
  })

  // Before better-auth's routes too: a cookie-carrying write from another origin is refused there.
  app.use('/api/*', requireSameOriginForCookieWrites(origins))
  const limiter = rateLimit({ ...config.authRateLimit, trustProxy: config.trustProxy })
  app.use('/api/auth/sign-in/*', limiter)
  app.use('/api/auth/sign-up/*', limiter)
  app.use('/api/auth/*', checkAuthBodies)
  app.on(['GET', 'POST'], '/api/auth/*', async (context) => {
    if (!isAllowedAuthEndpoint(context.req.method, context.req.path)) {
      throw notFound('No such API route')
    }
    const response = await stripSessionTokens(await auth.handler(context.req.raw), context.req.path)
    if (response.ok && changesAuthState(context.req.method, context.req.path))
      await authCache.flush()
    return withErrorBody(await explainUntrustedOrigin(response, origins.product))
  })

  // The chat stream authenticates with a short-lived JWT in its URL (EventSource sends no headers).
  app.route(
    '/',
    conversationListenRoutes({ db, auth, config, authCache, runtime: conversations, devboxes }),
  )
  // The OAuth redirect URI is a navigation from the authorization server: it redirects, never 401s.
  app.route(
    '/',
    oauthCallbackRoutes(
      integrationDeps,
      async (headers) => (await findSession(auth, authCache, headers))?.user.id,
    ),
  )
  app.use('/api/*', requireSession(auth, config, authCache))
  app.route('/', adminRoutes())
  app.route('/', evaluationRoutes({ db, config, runner: evaluations }))
  app.route('/', modelRoutes(config))
  app.route('/', organizationRoutes(db, authCache.memberships))
  const memberships = authCache.memberships
  const beforeDelete = (applicationId: string) =>
    stopApplicationRuns({ db, runtime: conversations }, applicationId)
  app.route(
    '/',
    applicationRoutes({ db, config, origins, memberships, devboxes, deploysDir, beforeDelete }),
  )
  app.route('/', vaultRoutes({ db, origins, memberships, vault }))
  app.route('/', adminIntegrationRoutes(integrationDeps))
  app.route('/', integrationRoutes({ ...integrationDeps, memberships }))
  app.route(
    '/',
    errorMonitoringRoutes({
      db,
      origins,
      memberships,
      ingest: errorIngest,
      onKeyRotated: (applicationId) => {
        errorReporting.forgetDsns()
        void devboxes.secretsChanged(applicationId).catch((error: Error) => {
          console.error('[errors] the app servers could not take the new key:', error.message)
        })
      },
    }),
  )
  app.route('/', conversationRoutes({ db, origins, memberships, runtime: conversations }))
  app.route('/', explorationRoutes({ db, memberships, runtime: conversations }))
  app.route('/', devboxAuthRoutes({ db, origins, memberships }))
  app.route('/', poolRoutes(devboxes))
  app.all('/api/*', () => {
    throw notFound('No such API route')
  })

  if (serveWeb) app.route('/', webAssets(config.webDistDir))
  const { previewHost, appsHost } = createHosts({
    db,
    config,
    origins,
    authSecret,
    memberships,
    devboxes,
    deploysDir,
    errorReporting,
  })
  return {
    app,
    auth,
    origins,
    authCache,
    conversations,
    previewHost,
    appsHost,
    vault,
    errorIngest,
    integrationDeps,
    evaluations,
  }
}

/** The preview origin and the deployed apps' origin, each with the error reporter. */
function createHosts(
  input: Omit<Parameters<typeof createPreviewHost>[0], 'errorReporting'> & {
    config: Config
    deploysDir: string
    errorReporting: ErrorReporting
  },
) {
  const { config, deploysDir, ...previewOptions } = input
  return {
    previewHost: createPreviewHost(previewOptions),
    appsHost: createAppsHost({
      db: input.db,
      deploysDir,
      appServers: input.devboxes.appServers,
      maxBodyBytes: config.maxBodyBytes,
      errorReporting: input.errorReporting,
    }),
  }
}

/** The error ingest and what the preview and apps hosts and sprout.internal use of it. */
function createErrorMonitoring(input: {
  db: DatabaseHandle['db']
  config: Config
  vault: Vault
  deploysDir: string
  publicUrl: string
}) {
  // Error reports keep no vault value (docs/product/vault.md "Redaction").
  const errorIngest = createErrorIngest({
    db: input.db,
    rateLimit: input.config.errorsRateLimit,
    redact: input.vault.redact,
    // Minified frames of deployed pages back to source lines (decision 016).
    symbolicate: createSymbolicator(input.deploysDir),
  })
  const errorReporting = createErrorReporting({
    db: input.db,
    publicUrl: input.publicUrl,
    ingest: errorIngest,
    maxBodyBytes: input.config.maxBodyBytes,
  })
  return { errorIngest, errorReporting }
}

/**
 * The vault's values reach the app's dev and production servers, restarted on each change, with
 * SENTRY_DSN (its error project at http://sprout.internal, which the egress proxy hands to
 * `handleInternalRequest`; docs/architecture/devbox.md "Error reports"), SPROUT_APP_TOKEN and
 * SPROUT_INTERNAL_URL (the organization's connections, decision 019).
 */
function connectVaultToServers(
  vault: Vault,
  devboxes: DevboxRuntime,
  errorReporting: ErrorReporting,
  integrations: InternalIntegrations & { publicUrl: string },
) {
  // Without a network of their own (no root, DEVBOX_SANDBOX=off) boxes have no egress proxy to
  // answer sprout.internal, and reach PUBLIC_URL like any host process.
  const viaEgress = !devboxes.confinement?.enforcement.network.startsWith('not enforced')
  devboxes.useSecrets(async (applicationId) => {
    const dsn = await errorReporting.dsnFor(applicationId)
    return {
      ...(await vault.secretsOf(applicationId)),
      ...(dsn ? { SENTRY_DSN: viaEgress ? internalDsn(dsn) : dsn } : {}),
      SPROUT_APP_TOKEN: await integrations.appTokens.tokenFor(applicationId),
      SPROUT_INTERNAL_URL: viaEgress
        ? 'http://sprout.internal'
        : `${integrations.publicUrl}/internal`,
    }
  })
  devboxes.useInternalRequests((applicationId, request, response) =>
    handleInternalRequest(applicationId, request, response, errorReporting, integrations),
  )
  vault.onChange((applicationId) => {
    void devboxes.secretsChanged(applicationId).catch((error: Error) => {
      console.error('[vault] the app servers could not take the new secrets:', error.message)
    })
  })
  return { viaEgress }
}

/** better-auth's bare 'Invalid origin' becomes a text that says which address to use. */
async function explainUntrustedOrigin(response: Response, productOrigin: string) {
  if (response.status !== 403) return response
  const text = await response.clone().text()
  if (!/invalid origin/i.test(text)) return response
  return Response.json({ error: untrustedOriginMessage(productOrigin) }, { status: 403 })
}

/** Signing in or up changes no existing session or membership; every other write may. */
function changesAuthState(method: string, path: string): boolean {
  if (method === 'GET') return /verify|callback/.test(path)
  return !/^\/api\/auth\/sign-(in|up)\//.test(path)
}

export type App = ReturnType<typeof createApp>['app']
