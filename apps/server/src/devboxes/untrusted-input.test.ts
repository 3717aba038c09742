import { gzipSync } from 'node:zlib'
import { requestDevServer } from '@sprout/devbox/dev-server-request.ts'
import { createSecretRedactor } from '@sprout/protocol/text/redact-secrets.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useOrganizationHarness } from '../testing/organization-harness.ts'
import { browserErrorEvent, sdkEnvelope } from '../testing/sentry-envelopes.ts'

/** The largest value the vault takes (64 KB in UTF-8), all astral: no one pattern holds it. */
const craftedSecret = '\u{1F600}'.repeat(16_384)

/** Routes printing non-Latin-1 text, and output no decoder likes: huge, invalid UTF-8, halves. */
const printingRoute = `import { Hono } from 'hono'

console.log('\\u279c started')
export const app = new Hono().basePath('/api')
app.get('/health', (c) => c.json({ ok: true }))
app.get('/print', (c) => {
  console.log('\\u279c printed', process.env.CRAFTED?.length)
  return c.json({ printed: true })
})
app.get('/flood', (c) => {
  const secret = process.env.CRAFTED ?? ''
  process.stdout.write(Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xf0, 0x9f]))
  process.stdout.write('half \\ud800 surrogate \\udfff and NUL \\u0000\\n')
  for (let index = 0; index < 40; index++) process.stdout.write('\\u279c'.repeat(50_000) + '\\n')
  process.stdout.write(secret.slice(0, secret.length - 1) + '\\n')
  process.stdout.write('leak ' + secret + ' end\\n')
  return c.json({ flooded: true })
})
export default app
`

/**
 * No tenant's input — a vault value, an output stream, an envelope — throws where nothing catches
 * it; the server keeps answering (docs/product/vault.md "Redaction", error-monitoring.md "Ingest").
 */
describe('untrusted input never crashes the server', { timeout: 300_000 }, () => {
  const uncaught: unknown[] = []
  const record = (error: unknown) => uncaught.push(error)
  beforeAll(() => {
    // Without the fix these throws are uncaught; the server (here: the test) records them.
    process.on('uncaughtException', record)
    process.on('unhandledRejection', record)
  })
  afterAll(() => {
    process.off('uncaughtException', record)
    process.off('unhandledRejection', record)
  })
  const setup = useOrganizationHarness({
    environment: { ERRORS_RATE_LIMIT: '100000/60' },
    organizationName: 'Untrusted',
  })
  let applicationId: string
  const as = setup.request
  const devServer = async (path: string) => {
    const target = setup.harness.devboxes.devServerTarget(applicationId)
    return target ? await requestDevServer(target, path).catch(() => undefined) : undefined
  }
  const devServerLogs = () => setup.harness.devboxes.box(applicationId)?.devServer.logs?.() ?? ''
  const expectHealthy = async () => {
    expect((await setup.harness.request('/healthz')).status).toBe(200)
    expect(uncaught.map((error) => String(error).slice(0, 200))).toEqual([])
  }

  beforeAll(async () => {
    applicationId = await setup.createReadyApplication('A page that prints')
    await setup.harness.devboxes.box(applicationId)?.files.write('server/app.ts', printingRoute)
  })

  it("takes the vault's largest astral value while the dev server prints non-Latin-1 text", async () => {
    await expect
      .poll(async () => (await devServer('/api/print'))?.status, { timeout: 60_000 })
      .toBe(200)
    const set = await as(`/api/applications/${applicationId}/vault`, {
      method: 'POST',
      body: JSON.stringify({ key: 'CRAFTED', value: craftedSecret }),
    })
    expect(set.status, await set.clone().text()).toBe(200)
    // The dev server restarts with the value and prints ➜ (Vite's banner, then the route's). The
    // old one may still answer for a moment: the route is asked until the new one has printed.
    await expect
      .poll(
        async () => {
          await devServer('/api/print')
          return devServerLogs()
        },
        { timeout: 60_000 },
      )
      .toContain('\u279c printed 32768')
    await expectHealthy()
  })

  it('keeps huge, invalid UTF-8 and half-secret output, redacted, and goes on', async () => {
    await expect
      .poll(async () => (await devServer('/api/flood'))?.status, { timeout: 60_000 })
      .toBe(200)
    await expect.poll(devServerLogs, { timeout: 10_000 }).toContain('leak [secret CRAFTED] end')
    expect(devServerLogs()).not.toContain(craftedSecret)
    // A box command's output, with the app's redaction streaming over it, as the agent's tool runs.
    const box = setup.harness.devboxes.box(applicationId)
    const stream = createSecretRedactor({ CRAFTED: craftedSecret }).stream()
    let streamed = ''
    const result = await box?.exec(
      `printf '\\355\\240\\200 \\342\\236\\234 done'; head -c 3000000 /dev/urandom`,
      { timeoutSeconds: 60, onOutput: (chunk) => (streamed += stream.push(chunk)) },
    )
    expect(result?.exitCode).toBe(0)
    expect(streamed + stream.flush()).toContain('\u279c done')
    await expectHealthy()
  })

  it('answers crafted envelopes with a 4xx or 200, never a crash or a 500', async () => {
    const { dsn } = (await (await as(`/api/applications/${applicationId}`)).json()) as {
      dsn: string
    }
    const url = new URL(dsn)
    const post = (body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) =>
      setup.harness.request(`/api${url.pathname}/envelope/?sentry_key=${url.username}`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers },
      })
    const rawEnvelope = (event: string) =>
      `{}\n${JSON.stringify({ type: 'event', length: Buffer.byteLength(event) })}\n${event}`
    const eventId = () => crypto.randomUUID().replaceAll('-', '')
    const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`
    const crafted: [string, string | Uint8Array<ArrayBuffer>][] = [
      [
        'the secret in every string',
        sdkEnvelope(
          dsn,
          browserErrorEvent(`failed with ${craftedSecret} \u279c`, {
            release: craftedSecret,
            tags: { [craftedSecret]: craftedSecret },
            extra: { list: Array.from({ length: 5 }, () => `x ${craftedSecret} y`) },
          }),
        ),
      ],
      ['nested 100,000 deep', rawEnvelope(`{"event_id":"${eventId()}","extra":${deep(100_000)}}`)],
      [
        'breadcrumbs nested 5,000 deep',
        rawEnvelope(
          `{"event_id":"${eventId()}","breadcrumbs":[${'{"data":'.repeat(5000)}1${'}'.repeat(5000)}]}`,
        ),
      ],
      [
        'weird shapes',
        rawEnvelope(
          JSON.stringify({
            event_id: eventId(),
            exception: { values: { not: 'a list' } },
            fingerprint: [{ toString: 'not a function' }, null, 3],
            timestamp: -1e12,
            message: { formatted: 42 },
            request: { headers: [1, 2], url: {} },
            contexts: { browser: 'Chrome', os: null },
            breadcrumbs: { values: 'none' },
            tags: ['a'],
            __proto__: { polluted: true },
          }),
        ),
      ],
      [
        'frames of every type',
        rawEnvelope(
          JSON.stringify({
            event_id: eventId(),
            timestamp: '+275760-09-13T00:00:00Z',
            exception: {
              values: [
                { type: {}, value: [], stacktrace: { frames: [null, 1, 'x', { lineno: 'a' }] } },
              ],
            },
          }),
        ),
      ],
      [
        'an event of nearly 1 MiB of strings',
        rawEnvelope(
          JSON.stringify({
            event_id: eventId(),
            extra: Array.from({ length: 60_000 }, (_, index) => `\u279c ${index}`),
          }),
        ),
      ],
      ['a gzip bomb', gzipSync(Buffer.alloc(64 * 1024 * 1024))],
      ['garbage', '\u0000\uffff\ud800'.repeat(10_000)],
    ]
    for (const [label, body] of crafted) {
      const response = await post(
        body,
        typeof body === 'string' ? {} : { 'content-encoding': 'gzip' },
      )
      expect(
        response.status === 200 || (response.status >= 400 && response.status < 500),
        label,
      ).toBe(true)
      await expectHealthy()
    }
    const groups = await (
      await as(`/api/applications/${applicationId}/error-groups?limit=50`)
    ).text()
    expect(groups).toContain('failed with [secret CRAFTED] \u279c')
    expect(groups).not.toContain(craftedSecret)
  })
})
