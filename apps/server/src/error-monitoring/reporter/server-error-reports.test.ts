import { randomBytes } from 'node:crypto'
import { requestDevServer } from '@sprout/devbox/dev-server-request.ts'
import { beforeAll, describe, expect, it } from 'vitest'
import { useOrganizationHarness } from '../../testing/organization-harness.ts'
import { rawRequest } from '../../testing/raw-request.ts'

/** The starter's way of reporting (server/monitoring.ts), with a route that leaks a secret. */
const failingRoute = `import { Hono } from 'hono'
import { reportError } from './monitoring.ts'

export const app = new Hono().basePath('/api')
app.get('/health', (c) => c.json({ ok: true }))
app.get('/dsn', (c) => c.json({ dsn: process.env.SENTRY_DSN ?? null }))
app.get('/fail', () => {
  throw new Error('Payment failed for key ' + process.env.PAYMENTS_KEY)
})
app.onError((error, c) => {
  reportError(error)
  return c.json({ error: 'Internal server error' }, 500)
})
export default app
`

type Group = { representative_message: string; source: string; occurrence_count: number }

/**
 * docs/architecture/devbox.md "Error reports": an app's server reports with @sentry/node to
 * http://sprout.internal from inside its box, and nothing else of Sprout answers there.
 */
describe("an app's server reports its errors through sprout.internal", { timeout: 300_000 }, () => {
  const setup = useOrganizationHarness({ organizationName: 'Reports', listen: true })
  let applicationId: string
  const secret = `sk-${randomBytes(12).toString('hex')}`
  const as = setup.request
  const box = () => {
    const found = setup.harness.devboxes.box(applicationId)
    if (!found) throw new Error('no box')
    return found
  }
  const groups = async () => {
    const response = await as(`/api/applications/${applicationId}/error-groups?limit=50`)
    return ((await response.json()) as { groups: Group[] }).groups
  }
  const devServer = async (path: string) => {
    const target = setup.harness.devboxes.devServerTarget(applicationId)
    return target ? await requestDevServer(target, path).catch(() => undefined) : undefined
  }

  beforeAll(async () => {
    applicationId = await setup.createReadyApplication('A failing server')
    const set = await as(`/api/applications/${applicationId}/vault`, {
      method: 'POST',
      body: JSON.stringify({ key: 'PAYMENTS_KEY', value: secret }),
    })
    expect(set.status).toBe(200)
    await box().files.write('server/app.ts', failingRoute)
  })

  it('gives the dev server SENTRY_DSN at sprout.internal; a thrown route arrives redacted', async () => {
    await expect
      .poll(async () => (await devServer('/api/fail'))?.status, { timeout: 60_000 })
      .toBe(500)
    const dsn = JSON.parse((await devServer('/api/dsn'))?.body ?? '{}').dsn as string
    expect(dsn).toMatch(/^http:\/\/[0-9a-f]{32}@sprout\.internal\/\d+$/)
    await expect
      .poll(
        async () =>
          (await groups()).map((group) => `${group.source} ${group.representative_message}`),
        {
          timeout: 30_000,
          interval: 250,
        },
      )
      .toContain('server Payment failed for key [secret PAYMENTS_KEY]')
    expect(JSON.stringify(await groups())).not.toContain(secret)
  })

  it('answers nothing else at sprout.internal, by plain HTTP or CONNECT', async () => {
    const dsn = new URL(JSON.parse((await devServer('/api/dsn'))?.body ?? '{}').dsn as string)
    const script = [
      // Other paths of Sprout: 404; another project's envelopes: refused by the ingest (403).
      `curl -s -o /dev/null -w '%{http_code} ' http://sprout.internal/api/health`,
      `curl -s -o /dev/null -w '%{http_code} ' http://sprout.internal/healthz`,
      `curl -s -o /dev/null -w '%{http_code} ' -X POST -H 'content-type: text/plain' --data-binary '{"dsn":"${dsn.href}"}' http://sprout.internal/api/999999${dsn.pathname.slice(1)}/envelope/`,
      `curl -s -o /dev/null -w '%{http_code} ' -X GET http://sprout.internal${dsn.pathname}/envelope/`,
      // Another port of the name, and a tunnel to it: refused by the proxy.
      `curl -s -o /dev/null -w '%{http_code} ' http://sprout.internal:${setup.harness.port}/api/health`,
      `curl -s -o /dev/null -w '%{http_code} ' -p http://sprout.internal:${setup.harness.port}/api/health`,
      `curl -s -o /dev/null -w '%{http_code}' https://sprout.internal/`,
    ].join('; ')
    const result = await box().exec(script, { timeoutSeconds: 60 })
    expect(result.output.trim().split(/\s+/)).toEqual([
      '404',
      '404',
      '403',
      '404',
      '403',
      '000',
      '000',
    ])
    // The product is not reached through its own host name either (the egress proxy refuses it).
    const product = await box().exec(
      `curl -s -o /dev/null -w '%{http_code}' http://localhost:${setup.harness.port}/healthz`,
      { timeoutSeconds: 30 },
    )
    expect(product.output.trim()).not.toBe('200')
    expect(await rawRequest(setup.harness.port, 'localhost', '/healthz')).toMatchObject({
      status: 200,
    })
  })
})

describe('without a network of their own (DEVBOX_SANDBOX=off)', { timeout: 300_000 }, () => {
  const setup = useOrganizationHarness({
    environment: { DEVBOX_SANDBOX: 'off' },
    organizationName: 'Unconfined',
    listen: true,
  })
  let applicationId: string
  const as = setup.request

  beforeAll(async () => {
    applicationId = await setup.createReadyApplication('A failing server')
    await setup.harness.devboxes.box(applicationId)?.files.write('server/app.ts', failingRoute)
  })

  it('the server reports to PUBLIC_URL, which it reaches like any process of the machine', async () => {
    const devServer = async (path: string) => {
      const target = setup.harness.devboxes.devServerTarget(applicationId)
      return target ? await requestDevServer(target, path).catch(() => undefined) : undefined
    }
    await expect
      .poll(async () => (await devServer('/api/fail'))?.status, { timeout: 60_000 })
      .toBe(500)
    const dsn = JSON.parse((await devServer('/api/dsn'))?.body ?? '{}').dsn as string
    expect(dsn).toMatch(new RegExp(`^http://[0-9a-f]{32}@localhost:${setup.harness.port}/\\d+$`))
    await expect
      .poll(
        async () => {
          const response = await as(`/api/applications/${applicationId}/error-groups?limit=50`)
          const { groups } = (await response.json()) as { groups: Group[] }
          return groups.map((group) => group.representative_message)
        },
        { timeout: 30_000, interval: 250 },
      )
      .toContain('Payment failed for key undefined')
  })
})
