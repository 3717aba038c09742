import { Hono } from 'hono'
import { accountRoutes } from './account/routes.ts'
import { adminAuditRoutes } from './admin/audit-routes.ts'
import { adminMailRoutes } from './admin/mail-routes.ts'
import { adminRoutes } from './admin/routes.ts'
import { signUpRulesRoutes } from './admin/sign-up-rules-routes.ts'
import { singleSignOnRoutes } from './admin/single-sign-on-routes.ts'
import { adminUserRoutes } from './admin/users/routes.ts'
import { type AppOptions, type Areas, createAreas } from './app-areas.ts'
import { appRuntimeRoutes } from './app-runtime/routes.ts'
import { type ApplicationLifecycle, applicationRoutes } from './applications/routes.ts'
import { auditRoutes } from './audit/route-audit.ts'
import { setupClaimRoutes, signInOptionRoutes } from './auth/access-routes.ts'
import { findSession, requireSession } from './auth/require-session.ts'
import { authRoutes } from './auth/routes.ts'
import { checkRoutes } from './checks/routes.ts'
import { conversationListenRoutes } from './conversations/listen-routes.ts'
import { conversationRoutes } from './conversations/routes.ts'
import { stopApplicationRuns } from './conversations/service.ts'
import { deployRoutes } from './devboxes/deploys/routes.ts'
import { removeDeploys } from './devboxes/deploys/service.ts'
import { devboxAuthRoutes } from './devboxes/hand-off/routes.ts'
import { createHosts } from './devboxes/hosts.ts'
import { poolRoutes } from './devboxes/pool/routes.ts'
import { editorReadyRoutes } from './devboxes/runtime/routes.ts'
import { errorIngestRoutes, errorMonitoringRoutes } from './error-monitoring/routes.ts'
import { errorDsn } from './error-monitoring/service.ts'
import { evaluationRoutes } from './evaluations/routes.ts'
import { explorationRoutes } from './explorations/routes.ts'
import type { AppEnv } from './http/app-env.ts'
import { notFound } from './http/app-error.ts'
import { CachedRouter } from './http/cached-router.ts'
import { onError } from './http/on-error.ts'
import { limitRequestBody, refuseUnsafeInput } from './http/request-guards.ts'
import { requireSameOriginForCookieWrites } from './http/same-origin.ts'
import { securityHeaders } from './http/security-headers.ts'
import { webAssets } from './http/web-assets.ts'
import { imageRoutes, imageUploadBody } from './images/routes.ts'
import {
  adminIntegrationRoutes,
  integrationRoutes,
  oauthCallbackRoutes,
} from './integrations/routes.ts'
import { freshAccessToken } from './integrations/service.ts'
import { modelRoutes } from './models/routes.ts'
import { organizationAuditRoutes } from './organizations/audit-routes.ts'
import { checkSettingsRoutes } from './organizations/check-settings-routes.ts'
import { organizationRoutes } from './organizations/routes.ts'
import { stopRunsOfUser } from './runs/service.ts'
import { vaultRoutes } from './vault/routes.ts'
import { fileRoutes } from './versions/file-routes.ts'
import { versionRoutes } from './versions/routes.ts'
import { takeOutRoutes } from './versions/take-out-routes.ts'

/**
 * The product's areas, created in the order they need each other, its routes, and its preview
 * and apps hosts; start-server.ts starts and stops the areas.
 */
export function createApp(options: AppOptions) {
  const areas = createAreas(options)
  const { config, authSecret } = options
  const app = new Hono<AppEnv>({ router: new CachedRouter() })
  app.onError(onError)
  mountOpenRoutes(app, areas)
  app.use('/api/*', requireSession(areas.auth, config, areas.authCache))
  mountMemberRoutes(app, areas)
  app.all('/api/*', () => {
    throw notFound('No such API route')
  })
  if (options.serveWeb) app.route('/', webAssets(config.webDistDir))
  const hosts = createHosts({ ...areas, authSecret })
  return { app, ...areas, ...hosts }
}

/** What requests meet before a session is required: hosts, limits, auth and the chat stream. */
function mountOpenRoutes(app: Hono<AppEnv>, areas: Areas) {
  const { database, db, config, origins, auth, authCache } = areas
  // Preview and deploy hosts never reach the product's routes or cookies.
  app.use('*', async (context, next) => {
    if (origins.hostKind(context.req.header('host')) !== 'product') {
      return context.json({ error: 'Not found' }, 404)
    }
    await next()
  })
  app.use('*', securityHeaders(origins, { pickerScriptUrl: config.googlePickerScriptUrl }))
  // Sentry envelopes: binary, often compressed, with limits of their own (error-monitoring/envelope.ts).
  app.route('/', errorIngestRoutes(areas.errorIngest))
  app.use('*', limitRequestBody(config.maxBodyBytes, [imageUploadBody]))
  app.use('/api/*', refuseUnsafeInput([imageUploadBody.path]))
  if (!areas.viaEgress) app.route('/', appRuntimeRoutes(areas.integrations))
  app.get('/healthz', async (context) => {
    await database.execute('select 1')
    return context.json({ status: 'ok' })
  })
  // Before better-auth's routes too: a cookie-carrying write from another origin is refused there.
  app.use('/api/*', requireSameOriginForCookieWrites(origins))
  // Records each audited route's success once it answered (docs/product/audit.md).
  app.use('/api/*', auditRoutes(areas.audit, config.trustProxy))
  app.route('/', authRoutes({ auth, authCache, origins, config, audit: areas.audit }))
  const { mailer, signUpRules, setupLink } = areas
  const singleSignOn = () => areas.singleSignOn.current()
  app.route('/', signInOptionRoutes({ config, mailer, signUpRules, setupLink, singleSignOn }))
  // The chat stream authenticates with a short-lived JWT in its URL (EventSource sends no headers).
  const { conversations: runtime, devboxes } = areas
  const { userStreams } = areas
  app.route(
    '/',
    conversationListenRoutes({ db, auth, config, authCache, runtime, devboxes, userStreams }),
  )
  // The OAuth redirect URI is a navigation from the authorization server: it redirects, never 401s.
  const sessionUser = async (headers: Headers) =>
    (await findSession(auth, authCache, headers))?.user.id
  app.route('/', oauthCallbackRoutes(areas.integrationDeps, sessionUser))
}

/** The product's API for signed-in users, each route checking the caller's membership. */
function mountMemberRoutes(app: Hono<AppEnv>, areas: Areas) {
  const { db, config, origins, memberships, devboxes, deploysDir, vault } = areas
  const { conversations: runtime, integrationDeps, errorReporting } = areas
  app.route('/', adminRoutes())
  app.route('/', adminMailRoutes({ db, mailer: areas.mailer }))
  app.route('/', adminAuditRoutes({ db, audit: areas.audit }))
  app.route('/', organizationAuditRoutes({ db, memberships, audit: areas.audit }))
  app.route(
    '/',
    adminUserRoutes({
      db,
      auth: areas.auth,
      config,
      authCache: areas.authCache,
      userStreams: areas.userStreams,
      mailer: areas.mailer,
      // docs/product/admin.md "Users tab": a banned user's runs stop (runs/ is above admin/).
      stopRunsOfUser: (userId) => stopRunsOfUser({ db, runtime }, userId),
    }),
  )
  app.route('/', signUpRulesRoutes(areas.signUpRules))
  app.route('/', singleSignOnRoutes(areas.singleSignOn))
  app.route('/', setupClaimRoutes({ setupLink: areas.setupLink, authCache: areas.authCache }))
  app.route('/', evaluationRoutes({ db, config, runner: areas.evaluations }))
  app.route('/', modelRoutes(config))
  app.route('/', organizationRoutes(db, memberships))
  app.route('/', checkSettingsRoutes({ db, memberships, installationAllows: config.autoRepair }))
  const lifecycle: ApplicationLifecycle = {
    created: (applicationId) => devboxes.attach(applicationId),
    deleting: async (applicationId) => {
      await stopApplicationRuns({ db, runtime }, applicationId)
      await devboxes.destroy(applicationId)
      await removeDeploys(deploysDir, applicationId, devboxes.appServers)
    },
    details: async (context, applicationId) => ({ dsn: await errorDsn(context, applicationId) }),
  }
  app.route(
    '/',
    applicationRoutes({ db, config, origins, memberships, authCache: areas.authCache, lifecycle }),
  )
  const stopRun = async (conversationId: string) => {
    if (await runtime.runs.interrupt(conversationId))
      await runtime.runs.settleInterrupted(conversationId)
  }
  const accountLifecycle = {
    deletingApplication: lifecycle.deleting,
    deletingConversation: stopRun,
  }
  const { authCache, userStreams } = areas
  app.route(
    '/',
    accountRoutes({ db, origins, config, authCache, userStreams, lifecycle: accountLifecycle }),
  )
  app.route('/', editorReadyRoutes({ db, origins, memberships, devboxes }))
  app.route('/', deployRoutes({ db, origins, memberships, devboxes, deploysDir }))
  app.route('/', vaultRoutes({ db, origins, memberships, vault }))
  app.route('/', versionRoutes({ db, origins, memberships, devboxes }))
  app.route('/', checkRoutes({ db, origins, memberships, devboxes, config, vault }))
  app.route('/', fileRoutes({ db, origins, memberships, devboxes }))
  app.route(
    '/',
    takeOutRoutes({
      db,
      origins,
      memberships,
      devboxes,
      keyring: vault.keyring,
      gitAllowedHosts: config.gitAllowedHosts,
      // docs/product/versions.md "Push to Git": a connected integration's token (e.g. GitHub's).
      integrationToken: async (organizationId, integration) =>
        (await freshAccessToken(integrationDeps, organizationId, integration)).accessToken,
    }),
  )
  app.route('/', adminIntegrationRoutes(integrationDeps))
  app.route('/', integrationRoutes({ ...integrationDeps, memberships }))
  const onKeyRotated = (applicationId: string) => {
    errorReporting.forgetDsns()
    void devboxes.secretsChanged(applicationId).catch((error: Error) => {
      console.error('[errors] the app servers could not take the new key:', error.message)
    })
  }
  app.route(
    '/',
    errorMonitoringRoutes({ db, origins, memberships, ingest: areas.errorIngest, onKeyRotated }),
  )
  app.route('/', imageRoutes({ images: areas.images.store, memberships }))
  app.route('/', conversationRoutes({ db, origins, memberships, runtime }))
  app.route('/', explorationRoutes({ db, memberships, runtime, userStreams: areas.userStreams }))
  app.route('/', devboxAuthRoutes({ db, origins, memberships }))
  app.route('/', poolRoutes(devboxes))
}

export type App = ReturnType<typeof createApp>['app']
