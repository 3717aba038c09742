// Long file: the envelope endpoint's cases (auth, encodings, malformed bodies, grouping) share one app.
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import type { ErrorGroup, ErrorInstance } from '@sprout/protocol/api/error-monitoring.ts'
import { beforeAll, describe, expect, it } from 'vitest'
import type { TestUser } from '../testing/app-harness.ts'
import { useOrganizationHarness } from '../testing/organization-harness.ts'
import { browserErrorEvent, sdkEnvelope } from '../testing/sentry-envelopes.ts'

describe('error ingest: Sentry envelopes', () => {
  const setup = useOrganizationHarness({
    environment: { ERRORS_RATE_LIMIT: '100000/60' },
    organizationName: 'Errors org',
    timeoutMs: 60_000,
  })
  let applicationId: string
  let otherApplicationId: string
  let dsn: string
  let key: string
  let projectId: string
  const headers = setup.headers

  const createApplication = () => setup.createApplication('A page that fails')
  const dsnOf = async (id: string) => {
    const response = await setup.harness.request(`/api/applications/${id}`, {
      user: setup.owner,
      headers: headers(),
    })
    return ((await response.json()) as { dsn: string }).dsn
  }
  const post = (
    body: string | Uint8Array<ArrayBuffer>,
    options: { path?: string; headers?: Record<string, string> } = {},
  ) =>
    setup.harness.request(options.path ?? `/api/${projectId}/envelope/?sentry_key=${key}`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'text/plain;charset=UTF-8', ...options.headers },
    })
  const groups = async (query = '') => {
    const response = await setup.harness.request(
      `/api/applications/${applicationId}/error-groups?limit=100${query}`,
      { user: setup.owner, headers: headers() },
    )
    expect(response.status).toBe(200)
    return ((await response.json()) as { groups: ErrorGroup[] }).groups
  }
  const groupWith = async (message: string) =>
    (await groups()).find((group) => group.representative_message.includes(message))
  const occurrences = async (groupId: string, limit = 10) => {
    const response = await setup.harness.request(
      `/api/errors/groups/${groupId}/errors?limit=${limit}`,
      {
        user: setup.owner,
        headers: headers(),
      },
    )
    return ((await response.json()) as { errors: ErrorInstance[] }).errors
  }

  beforeAll(async () => {
    applicationId = await createApplication()
    otherApplicationId = await createApplication()
    dsn = await dsnOf(applicationId)
    const url = new URL(dsn)
    key = url.username
    projectId = url.pathname.slice(1)
  }, 60_000)

  it('gives each application a DSN: its key and numeric project on the product origin', async () => {
    expect(dsn).toMatch(new RegExp(`^http://[0-9a-f]{32}@localhost:${setup.harness.port}/\\d+$`))
    expect(await dsnOf(otherApplicationId)).not.toBe(dsn)
    expect(await dsnOf(applicationId)).toBe(dsn)
  })

  it('stores an SDK envelope with its group, context, session data and stack', async () => {
    const event = browserErrorEvent("Cannot read properties of undefined (reading 'name')")
    const response = await post(sdkEnvelope(dsn, event), {
      path: `/api/${projectId}/envelope/`,
      headers: {
        'x-sentry-auth': `Sentry sentry_version=7, sentry_key=${key}, sentry_client=sentry.javascript.browser/11.12.0`,
      },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(await response.json()).toEqual({ id: event.event_id })
    const group = await groupWith('Cannot read properties')
    expect(group).toMatchObject({
      application_id: applicationId,
      error_type: 'TypeError',
      occurrence_count: 1,
      status: 'active',
      source: 'browser',
      last_url: 'http://app.preview.localhost:3000/users/42',
      representative_stack: [
        'at loadUser (http://app.preview.localhost:3000/src/user.ts:11:5)',
        'at onClick (http://app.preview.localhost:3000/src/App.tsx?t=1700000000:10:5)',
      ],
    })
    const [occurrence] = await occurrences(group?.id ?? '')
    expect(occurrence?.session_data).toMatchObject({
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0',
      url: 'http://app.preview.localhost:3000/users/42',
      release: 'app@1.0.0',
      environment: 'preview',
    })
    expect(occurrence?.context).toMatchObject({
      level: 'error',
      tags: { route: '/users/:id' },
      breadcrumbs: [expect.objectContaining({ message: 'button#save' })],
    })
    expect(occurrence?.id.replaceAll('-', '')).toBe(event.event_id)
  })

  it("takes the key from the envelope header's dsn (the tunnel) and refuses wrong keys", async () => {
    const tunneled = sdkEnvelope(dsn, browserErrorEvent('From the tunnel'), { tunnel: true })
    expect((await post(tunneled, { path: `/api/${projectId}/envelope/` })).status).toBe(200)
    const bare = `{}\n{"type":"event"}\n${JSON.stringify(browserErrorEvent('No key'))}\n`
    const missing = await post(bare, { path: `/api/${projectId}/envelope/` })
    expect(missing.status).toBe(401)
    expect(((await missing.json()) as { error: string }).error).toMatch(/X-Sentry-Auth/)
    const unknown = await post(bare, {
      path: `/api/${projectId}/envelope/?sentry_key=${'0'.repeat(32)}`,
    })
    expect(unknown.status).toBe(403)
    const otherKey = new URL(await dsnOf(otherApplicationId)).username
    const crossed = await post(bare, { path: `/api/${projectId}/envelope/?sentry_key=${otherKey}` })
    expect(crossed.status).toBe(403)
    expect(await crossed.json()).toEqual({
      error: 'Unknown DSN: this key does not belong to this project',
    })
    expect(await groupWith('No key')).toBeUndefined()
  })

  it('reads gzip, deflate and br bodies and application/x-sentry-envelope', async () => {
    const encoders = {
      gzip: promisify(zlib.gzip),
      deflate: promisify(zlib.deflate),
      br: promisify(zlib.brotliCompress),
    }
    for (const [encoding, encode] of Object.entries(encoders)) {
      const body = await encode(
        Buffer.from(sdkEnvelope(dsn, browserErrorEvent(`Compressed ${encoding}`))),
      )
      const response = await post(new Uint8Array(body), {
        headers: { 'content-encoding': encoding, 'content-type': 'application/x-sentry-envelope' },
      })
      expect(response.status, encoding).toBe(200)
      expect(await groupWith(`Compressed ${encoding}`), encoding).toBeDefined()
    }
  })

  it('groups by type, normalised message and top in-app frames; a fingerprint overrides', async () => {
    const variants = [
      'User 42 not found at https://api.example.com/users/42?x=1',
      'User 7 not found at https://api.example.com/users/7',
      'User 123456 not found at http://localhost/u',
    ]
    for (const [index, message] of variants.entries()) {
      const event = browserErrorEvent(message, {
        frames: [
          { function: 'onClick', file: `http://localhost:5173/src/App.tsx?t=${index}` },
          { function: 'loadUser', file: `https://other.host/src/user.ts?v=${index}` },
        ],
      })
      expect((await post(sdkEnvelope(dsn, event))).status).toBe(200)
    }
    const grouped = (await groups()).filter((group) =>
      group.representative_message.startsWith('User '),
    )
    expect(grouped).toHaveLength(1)
    expect(grouped[0]?.occurrence_count).toBe(3)
    const elsewhere = browserErrorEvent('User 9 not found at https://api.example.com/users/9', {
      frames: [{ function: 'save', file: 'http://localhost:5173/src/Form.tsx' }],
    })
    await post(sdkEnvelope(dsn, elsewhere))
    const custom = (message: string) =>
      browserErrorEvent(message, { fingerprint: ['payment-provider-down'] })
    await post(sdkEnvelope(dsn, custom('Stripe said no')))
    await post(sdkEnvelope(dsn, custom('PayPal timed out')))
    const all = await groups()
    expect(all.filter((group) => group.representative_message.startsWith('User '))).toHaveLength(2)
    const payments = all.filter((group) => /Stripe|PayPal/.test(group.representative_message))
    expect(payments).toHaveLength(1)
    expect(payments[0]?.occurrence_count).toBe(2)
  })

  it('stores a replayed event once', async () => {
    const envelope = sdkEnvelope(dsn, browserErrorEvent('Replayed once'))
    const answers = await Promise.all([post(envelope), post(envelope), post(envelope)])
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    await post(envelope)
    expect((await groupWith('Replayed once'))?.occurrence_count).toBe(1)
  })

  it('accepts and ignores items that are not events', async () => {
    const before = (await groups()).length
    const items = [
      '{"type":"transaction"}\n{"type":"transaction","spans":[]}',
      '{"type":"session"}\n{"sid":"x","status":"ok"}',
      '{"type":"client_report"}\n{"discarded_events":[]}',
      '{"type":"attachment","length":5,"filename":"a.txt"}\nhello',
      '{"type":"something_new"}\n{"x":1}',
    ]
    const response = await post(`{"sent_at":"${new Date().toISOString()}"}\n${items.join('\n')}\n`)
    expect(response.status).toBe(200)
    expect((await groups()).length).toBe(before)
  })

  it('answers malformed envelopes with a 400 or 413 that says what is wrong', async () => {
    const event = JSON.stringify(browserErrorEvent('Malformed'))
    const cases: [string, number, RegExp, Record<string, string>?][] = [
      ['{"event_id": ', 400, /envelope header is not valid JSON/],
      ['[]\n', 400, /envelope header must be a JSON object/],
      [`{}\n{"type":"event","length":99999}\n${event}\n`, 400, /goes past the end/],
      [`{}\n{"type":"event","length":3}\n${event}\n`, 400, /longer than its length 3/],
      ['{}\n{"type":"event"}\n{not json}\n', 400, /event in item 1 is not valid JSON/],
      [`{}\n{"type":"event"}\n${JSON.stringify({ event_id: 'nope' })}\n`, 400, /event_id/],
      ['', 400, /empty/],
      ['{}', 400, /Content-Encoding/, { 'content-encoding': 'gzip' }],
      ['{}', 400, /Unsupported Content-Encoding "zstd"/, { 'content-encoding': 'zstd' }],
      ['{}', 415, /Content-Type/, { 'content-type': 'application/json' }],
    ]
    for (const [body, status, error, extra] of cases) {
      const response = await post(body, { headers: extra })
      expect(response.status, String(body).slice(0, 40)).toBe(status)
      expect(((await response.json()) as { error: string }).error).toMatch(error)
    }
    const large = JSON.stringify(browserErrorEvent('x'.repeat(1024 * 1024 + 10)))
    const oversize = await post(`{}\n{"type":"event"}\n${large}\n`)
    expect(oversize.status).toBe(413)
    expect(((await oversize.json()) as { error: string }).error).toMatch(/limit is 1,048,576/)
    // 30 MB of zeros, 30 KB on the wire: decompression stops at the limit.
    const bomb = zlib.gzipSync(Buffer.alloc(30 * 1024 * 1024))
    const exploded = await post(new Uint8Array(bomb), { headers: { 'content-encoding': 'gzip' } })
    expect(exploded.status).toBe(413)
    expect(((await exploded.json()) as { error: string }).error).toMatch(/once decompressed/)
  })

  it('stores NUL bytes and lone surrogates in messages as U+FFFD', async () => {
    const event = browserErrorEvent('Bad \u0000 byte and half \ud800 pair')
    const text = sdkEnvelope(dsn, event).replace('half \ud800', 'half \\ud800')
    expect((await post(text)).status).toBe(200)
    const group = await groupWith('byte and half')
    expect(group?.representative_message).toBe('Bad \ufffd byte and half \ufffd pair')
  })

  it('keeps events with out-of-range timestamps, at the time they arrived (as Sentry does)', async () => {
    const now = Date.now() / 1000
    const dayAgo = now - 24 * 60 * 60
    const cases: [string, unknown][] = [
      ['before the epoch', -1e12],
      ['past every date', 1e20],
      ['NaN as text', 'NaN'],
      ['not a date', 'yesterday-ish'],
      ['the first date', '-271821-04-20T00:00:00Z'],
      ['far future', now + 10 * 365 * 24 * 60 * 60],
      ['forty days old', now - 40 * 24 * 60 * 60],
      ['an hour ahead', new Date((now + 3600) * 1000).toISOString()],
      ['a day ago', dayAgo],
    ]
    for (const [label, timestamp] of cases) {
      const before = Date.now()
      const event = { ...browserErrorEvent(`Clock case ${label}`), timestamp }
      const response = await post(sdkEnvelope(dsn, event as Parameters<typeof sdkEnvelope>[1]))
      expect(response.status, label).toBe(200)
      const after = Date.now()
      const group = await groupWith(`Clock case ${label}`)
      const [occurrence] = await occurrences(group?.id ?? '')
      const occurredAt = Date.parse(occurrence?.occurred_at ?? '')
      if (label === 'a day ago') expect(occurredAt, label).toBe(Math.round(dayAgo * 1000))
      else expect(occurredAt >= before - 1000 && occurredAt <= after + 1000, label).toBe(true)
    }
  })

  it('reopens a resolved group on a new event; an ignored one keeps counting', async () => {
    await post(sdkEnvelope(dsn, browserErrorEvent('Comes back')))
    await post(sdkEnvelope(dsn, browserErrorEvent('Stays quiet')))
    const back = await groupWith('Comes back')
    const quiet = await groupWith('Stays quiet')
    const patch = (path: string, status: string) =>
      setup.harness.request(path, {
        method: 'PATCH',
        user: setup.owner,
        headers: headers(),
        body: JSON.stringify({ status }),
      })
    const resolved = await patch(`/api/errors/groups/${back?.id}/status`, 'resolved')
    expect(((await resolved.json()) as ErrorGroup).status).toBe('resolved')
    const ignored = await patch(
      `/api/applications/${applicationId}/error-groups/${quiet?.id}`,
      'ignored',
    )
    expect(ignored.status).toBe(200)
    expect((await patch(`/api/errors/groups/${back?.id}/status`, 'gone')).status).toBe(400)
    await post(sdkEnvelope(dsn, browserErrorEvent('Comes back')))
    await post(sdkEnvelope(dsn, browserErrorEvent('Stays quiet')))
    expect(await groupWith('Comes back')).toMatchObject({ status: 'active', occurrence_count: 2 })
    expect(await groupWith('Stays quiet')).toMatchObject({ status: 'ignored', occurrence_count: 2 })
    const stats = await setup.harness.request(`/api/applications/${applicationId}/error-stats`, {
      user: setup.owner,
      headers: headers(),
    })
    expect(await stats.json()).toMatchObject({ ignored: 1, resolved: 0 })
  })

  it('keeps exact counts and the newest 100 occurrences of a group', async () => {
    const events = Array.from({ length: 160 }, (_, index) =>
      browserErrorEvent('Flooding error', { timestamp: Date.now() / 1000 - 160 + index }),
    )
    await Promise.all(events.map((event) => post(sdkEnvelope(dsn, event))))
    const group = await groupWith('Flooding error')
    expect(group?.occurrence_count).toBe(160)
    const kept = await occurrences(group?.id ?? '', 100)
    expect(kept).toHaveLength(100)
    expect(kept.at(-1)?.id.replaceAll('-', '')).toBe(events[60]?.event_id)
    expect((await occurrences(group?.id ?? '')).length).toBe(10)
    // Older ones are deleted beside the writes (every 50 past the 100), after the answers.
    const stored = async () =>
      Number(
        (
          await setup.harness.database.execute(
            'select count(*) as n from error_instances where group_id = $1',
            [group?.id],
          )
        ).rows[0]?.n,
      )
    for (let attempt = 0; (await stored()) > 110; attempt++) {
      if (attempt > 200) throw new Error(`still ${await stored()} occurrences stored`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    expect(await stored()).toBeGreaterThanOrEqual(100)
  })

  it('pages the organization-wide list with a cursor and filters by status', async () => {
    const first = await setup.harness.request('/api/errors/groups?limit=2', {
      user: setup.owner,
      headers: headers(),
    })
    const page = (await first.json()) as { groups: ErrorGroup[]; next_cursor: string | null }
    expect(page.groups).toHaveLength(2)
    expect(page.groups[0]?.application_name).toBeTruthy()
    const second = await setup.harness.request(
      `/api/errors/groups?limit=2&cursor=${page.next_cursor}`,
      {
        user: setup.owner,
        headers: headers(),
      },
    )
    const next = (await second.json()) as { groups: ErrorGroup[] }
    expect(next.groups[0]?.id).not.toBe(page.groups[0]?.id)
    expect((next.groups[0]?.last_seen_at ?? '') <= (page.groups[1]?.last_seen_at ?? '')).toBe(true)
    const ignored = await setup.harness.request('/api/errors/groups?status=ignored', {
      user: setup.owner,
      headers: headers(),
    })
    const ignoredGroups = ((await ignored.json()) as { groups: ErrorGroup[] }).groups
    expect(ignoredGroups.map((group) => group.status)).toEqual(['ignored'])
    const bad = await setup.harness.request('/api/errors/groups?cursor=nonsense', {
      user: setup.owner,
      headers: headers(),
    })
    expect(bad.status).toBe(400)
    const stats = await setup.harness.request('/api/errors/stats', {
      user: setup.owner,
      headers: headers(),
    })
    expect(
      ((await stats.json()) as { total_occurrences: number }).total_occurrences,
    ).toBeGreaterThan(140)
  })

  it('rotates the key for a platform admin: the old one is refused at once', async () => {
    const admin = await setup.harness.signUp()
    await setup.harness.addMember(setup.organizationId, setup.owner, admin, 'admin')
    const rotate = (as: TestUser) =>
      setup.harness.request(`/api/applications/${otherApplicationId}/error-key/rotate`, {
        method: 'POST',
        user: as,
        headers: headers(),
      })
    const before = await dsnOf(otherApplicationId)
    const refused = await rotate(admin)
    // The owner signed up through the setup link: the platform admin (organization-harness.ts).
    const asPlatformAdmin = refused.status === 403 ? await rotate(setup.owner) : refused
    expect(asPlatformAdmin.status).toBe(200)
    const { dsn: rotated } = (await asPlatformAdmin.json()) as { dsn: string }
    expect(rotated).not.toBe(before)
    expect(await dsnOf(otherApplicationId)).toBe(rotated)
    const event = browserErrorEvent('After rotation')
    const old = new URL(before)
    const oldKey = await post(sdkEnvelope(before, event), {
      path: `/api${old.pathname}/envelope/?sentry_key=${old.username}`,
    })
    expect(oldKey.status).toBe(403)
    const fresh = new URL(rotated)
    const newKey = await post(sdkEnvelope(rotated, event), {
      path: `/api${fresh.pathname}/envelope/?sentry_key=${fresh.username}`,
    })
    expect(newKey.status).toBe(200)
  })

  it('passes frames through the symbolicate hook and every text through redact', async () => {
    setup.harness.created.errorIngest.useHooks({
      symbolicate: async (id, frames) =>
        id === applicationId
          ? frames.map((frame) => ({
              ...frame,
              path: frame.path.replace('/assets/index-x1.js', '/src/Pay.tsx'),
            }))
          : frames,
      redact: (_id, text) => text.replaceAll('sk_live_hunter2', '[redacted]'),
    })
    const event = browserErrorEvent('Charge failed with sk_live_hunter2', {
      frames: [{ function: 'pay', file: 'http://app.apps.localhost:3000/assets/index-x1.js' }],
      tags: { key: 'sk_live_hunter2' },
    })
    expect((await post(sdkEnvelope(dsn, event))).status).toBe(200)
    const group = await groupWith('Charge failed')
    expect(group?.representative_message).toBe('Charge failed with [redacted]')
    expect(group?.representative_stack).toEqual([
      'at pay (http://app.apps.localhost:3000/src/Pay.tsx:10:5)',
    ])
    const [occurrence] = await occurrences(group?.id ?? '')
    expect(JSON.stringify(occurrence)).not.toContain('hunter2')
  })

  it("deletes an application's error data with it", async () => {
    const doomed = await createApplication()
    const doomedDsn = new URL(await dsnOf(doomed))
    const sent = await post(sdkEnvelope(doomedDsn.toString(), browserErrorEvent('Doomed')), {
      path: `/api${doomedDsn.pathname}/envelope/?sentry_key=${doomedDsn.username}`,
    })
    expect(sent.status).toBe(200)
    const count = async () =>
      (
        await setup.harness.database.execute(
          'select (select count(*) from error_groups where application_id = $1) + (select count(*) from error_instances where application_id = $1) + (select count(*) from error_projects where application_id = $1) as n',
          [doomed],
        )
      ).rows[0]?.n
    expect(Number(await count())).toBe(3)
    await setup.harness.request(`/api/applications/${doomed}`, {
      method: 'DELETE',
      user: setup.owner,
      headers: headers(),
    })
    expect(Number(await count())).toBe(0)
  })
})

describe('error ingest: the rate limit', () => {
  const setup = useOrganizationHarness({
    environment: { ERRORS_RATE_LIMIT: '3/60' },
    timeoutMs: 60_000,
  })

  it('answers 429 with Retry-After and X-Sentry-Rate-Limits past ERRORS_RATE_LIMIT', async () => {
    const { harness, owner: user, organizationId } = setup
    const created = await harness.request('/api/applications', {
      method: 'POST',
      user,
      headers: { 'organization-id': organizationId },
      body: JSON.stringify({ initial_prompt: 'Noisy', model: 'demo' }),
    })
    const { id } = (await created.json()) as { id: string }
    const read = await harness.request(`/api/applications/${id}`, {
      user,
      headers: { 'organization-id': organizationId },
    })
    const dsn = new URL(((await read.json()) as { dsn: string }).dsn)
    const send = () =>
      harness.request(`/api${dsn.pathname}/envelope/?sentry_key=${dsn.username}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: sdkEnvelope(dsn.toString(), browserErrorEvent('Noise')),
      })
    for (let index = 0; index < 3; index++) expect((await send()).status).toBe(200)
    const limited = await send()
    expect(limited.status).toBe(429)
    const retryAfter = Number(limited.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(limited.headers.get('x-sentry-rate-limits')).toBe(`${retryAfter}::project`)
    expect(limited.headers.get('access-control-expose-headers')).toContain('x-sentry-rate-limits')
    expect(((await limited.json()) as { error: string }).error).toMatch(/ERRORS_RATE_LIMIT/)
  })
})
