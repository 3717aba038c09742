import { Hono } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../http/app-env.ts'
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
}) {
  const app = new Hono<AppEnv>()
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
  return app
}
