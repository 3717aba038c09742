import { APP_MAIL_BODY_MAX_BYTES, APP_MAIL_PATH } from '@sprout/protocol/api/app-mail.ts'
import { APP_IDENTITY_JWKS_PATH } from '@sprout/protocol/api/app-visibility.ts'
import { Hono } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../http/app-env.ts'
import { type AppMailRelay, answerMailRequest } from './app-mail.ts'
import type { AppTokens } from './app-tokens.ts'
import { type AccessTokenSource, answerTokenRequest } from './integration-token.ts'

/**
 * `GET /internal/integrations/{service}/token` at PUBLIC_URL, mounted only for boxes without a
 * network of their own (DEVBOX_SANDBOX=off, no root; decision 019). With confined boxes an app
 * token is accepted from its own box alone.
 */
export function appRuntimeRoutes(options: {
  appTokens: AppTokens
  accessToken: AccessTokenSource
  appIdentityKeys: { keys: object[] }
  mail: AppMailRelay
}) {
  const app = new Hono<AppEnv>()
  // The public keys apps verify their callers' identity with (decision 046).
  app.get(`/internal${APP_IDENTITY_JWKS_PATH}`, (context) => {
    context.header('cache-control', 'public, max-age=300')
    return context.json(options.appIdentityKeys)
  })
  app.get(
    '/internal/integrations/:service{[A-Za-z0-9][A-Za-z0-9._-]{0,99}}/token',
    async (context) => {
      const answer = await answerTokenRequest({
        authorization: context.req.header('authorization'),
        service: context.req.param('service'),
        ...options,
      })
      context.header('cache-control', 'no-store')
      return context.json(answer.body, answer.status as ContentfulStatusCode)
    },
  )
  app.post(`/internal${APP_MAIL_PATH}`, async (context) => {
    const text = await context.req.text()
    const answer = await answerMailRequest({
      authorization: context.req.header('authorization'),
      body: Buffer.byteLength(text) > APP_MAIL_BODY_MAX_BYTES ? undefined : text,
      appTokens: options.appTokens,
      relay: options.mail,
    })
    context.header('cache-control', 'no-store')
    return context.json(answer.body, answer.status as ContentfulStatusCode)
  })
  return app
}
