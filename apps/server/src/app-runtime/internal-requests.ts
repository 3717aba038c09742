import type { IncomingMessage, ServerResponse } from 'node:http'
import { APP_MAIL_BODY_MAX_BYTES, APP_MAIL_PATH } from '@sprout/protocol/api/app-mail.ts'
import { APP_IDENTITY_JWKS_PATH } from '@sprout/protocol/api/app-visibility.ts'
import type { ErrorReporting } from '../error-monitoring/service.ts'
import { readBody } from '../http/read-body.ts'
import { type AppMailRelay, answerMailRequest } from './app-mail.ts'
import type { AppTokens } from './app-tokens.ts'
import {
  type AccessTokenSource,
  answerTokenRequest,
  serviceOfTokenPath,
} from './integration-token.ts'

const internalHost = 'sprout.internal'
const envelopeRoute = /^\/api\/(\d{1,9})\/envelope\/?$/

/**
 * The DSN an app's server reports with from inside its box: the same key and project, at
 * `http://sprout.internal`, which the egress proxy answers itself (docs/architecture/devbox.md
 * "Error reports").
 */
export function internalDsn(dsn: string): string {
  const url = new URL(dsn)
  return `http://${url.username}@${internalHost}${url.pathname}`
}

/**
 * What answers `GET /integrations/{service}/token` (decision 019), and the key set apps verify
 * their callers' identity with (`GET /.well-known/jwks.json`, decision 046).
 */
export type InternalIntegrations = {
  appTokens: AppTokens
  accessToken: AccessTokenSource
  appIdentityKeys: { keys: object[] }
  /** `POST /mail`: the app's own messages through Sprout's outbox (decision 046). */
  mail: AppMailRelay
}

/**
 * A box's request to `http://sprout.internal`: only `POST /api/{project}/envelope/` of its own
 * application, `GET /integrations/{service}/token` with its own app token and the public key set
 * of apps' identity tokens are answered; anything else is a 404, so nothing else of Sprout is reachable through the name.
 */
export async function handleInternalRequest(
  applicationId: string | undefined,
  request: IncomingMessage,
  response: ServerResponse,
  reporting: ErrorReporting | undefined,
  integrations?: InternalIntegrations,
): Promise<void> {
  const notFound = () => {
    request.resume()
    response.writeHead(404, { 'content-type': 'text/plain' })
    response.end(
      `Only POST /api/{project}/envelope/ (error reports), GET /integrations/{service}/token, POST ${APP_MAIL_PATH} and GET ${APP_IDENTITY_JWKS_PATH} are served at ${internalHost}\n`,
    )
  }
  const url = new URL(request.url ?? '/', `http://${internalHost}`)
  if (url.pathname === APP_IDENTITY_JWKS_PATH && request.method === 'GET' && integrations) {
    request.resume()
    response.writeHead(200, {
      'content-type': 'application/json',
      'cache-control': 'public, max-age=300',
    })
    response.end(JSON.stringify(integrations.appIdentityKeys))
    return
  }
  if (url.pathname === APP_MAIL_PATH && request.method === 'POST' && integrations) {
    const body = await readBody(request, APP_MAIL_BODY_MAX_BYTES)
    const answer = await answerMailRequest({
      authorization: request.headers.authorization,
      body: body?.toString('utf8'),
      box: { applicationId },
      appTokens: integrations.appTokens,
      relay: integrations.mail,
    })
    response.writeHead(answer.status, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      ...(body ? {} : { connection: 'close' }),
    })
    response.end(JSON.stringify(answer.body))
    return
  }
  const service = serviceOfTokenPath(url.pathname)
  if (service && request.method === 'GET' && integrations) {
    request.resume()
    const answer = await answerTokenRequest({
      authorization: request.headers.authorization,
      service,
      box: { applicationId },
      ...integrations,
    })
    response.writeHead(answer.status, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
    })
    response.end(JSON.stringify(answer.body))
    return
  }
  const projectId = envelopeRoute.exec(url.pathname)?.[1]
  if (!projectId || request.method !== 'POST' || !applicationId || !reporting) {
    notFound()
    return
  }
  const body = await readBody(request, reporting.maxBodyBytes)
  if (!body) {
    response.writeHead(413, { 'content-type': 'text/plain', connection: 'close' })
    response.end('Envelope too large\n')
    return
  }
  const answer = await reporting.ingest({
    applicationId,
    projectId,
    body,
    headers: request.headers,
    query: url.searchParams,
  })
  response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
  response.end(answer.body)
}
