// Long file: the hostile bodies, the example bodies they alter, and the fuzz run over every route.
import { ORGANIZATION_SLUG_MAX } from '@sprout/protocol/api/auth.ts'
import { JSON_MAX_DEPTH } from '@sprout/protocol/text/json-depth.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allowedAuthEndpoints } from '../auth/auth-endpoints.ts'
import { createTestApp, type TestApp, type TestUser } from '../testing/app-harness.ts'

// Hostile bodies for every write route (found on the app, as route-matrix.test.ts finds them):
// none may answer 5xx. Seeded, so a failure names a request that fails again the same way.
const seed = 17
/** An id that names nothing: deterministic, unlike a fresh UUID. */
const nobody = '00000000-0000-4000-8000-00000000f022'
const casesPerRoute = 14
const minimumRequests = 500

type Route = { method: string; path: string }
/** A request body as raw text: the JSON escapes (`\ud800`, `\u0000`, `1e400`) stay as sent. */
type FuzzCase = { name: string; body: string }
type Fixture = {
  user: TestUser
  organizationId: string
  applicationId: string
  explorationId: string
  groupId: string
  secretKey: string
  serviceName: string
  projectId: string
  sentryKey: string
  previewUrl: string
}

/** mulberry32: small, fast and the same sequence on every machine. */
function createRandom(start: number) {
  let state = start >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let value = state
    value = Math.imul(value ^ (value >>> 15), value | 1)
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296
  }
  const pick = <Item>(items: readonly Item[]): Item =>
    items[Math.floor(next() * items.length)] as Item
  return { next, pick }
}
type Random = ReturnType<typeof createRandom>

const quoted = (text: string) => JSON.stringify(text)
const deepArray = (depth: number, inner = '0') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}null${'}'.repeat(depth)}`
const objectText = (entries: [string, string][]) =>
  `{${entries.map(([key, value]) => `${key}:${value}`).join(',')}}`

/** Valid bodies of the routes that take one; any other route starts from `{}`. */
function exampleBodies(fixture: Fixture): Record<string, Record<string, unknown>> {
  const integration = {
    service_name: fixture.serviceName,
    client_id: 'fuzz-client',
    client_secret: 'fuzz-secret',
    auth_url: 'https://auth.example.com/authorize',
    token_url: 'https://auth.example.com/token',
    scopes: 'read',
  }
  return {
    'POST /api/applications': { name: 'Fuzz', initial_prompt: 'A counter', model: 'demo' },
    'POST /api/:projectId{[0-9]+}/envelope/': {
      event_id: 'f022'.repeat(8),
      message: 'Fuzz',
      tags: {},
      contexts: {},
      extra: {},
      breadcrumbs: [],
    },
    'POST /api/applications/:id/vault': { key: 'FUZZ_KEY', value: 'fuzz value' },
    'PATCH /api/errors/groups/:group/status': { status: 'resolved' },
    'PATCH /api/applications/:id/error-groups/:group': { status: 'ignored' },
    'POST /api/org/devbox-token': { devbox_url: fixture.previewUrl },
    'POST /api/admin/pool/cycle': { pack_type: 'fullstack' },
    'POST /api/admin/conversation-evals': {
      conversation_ids: [nobody],
      model: 'demo',
    },
    'POST /api/demo/applications/:id/message': { message: 'Hello', model: 'demo' },
    'POST /api/demo/applications/:id/stage-message': {
      message: 'Later',
      conversation_id: nobody,
    },
    'POST /api/demo/applications/:id/continue': { model: 'demo' },
    'POST /api/explorations': { message: 'An idea', model: 'demo' },
    'POST /api/explorations/:id/message': { message: 'More of it', model: 'demo' },
    'POST /api/explorations/:id/listen': { last_event_id: 0 },
    'POST /api/admin/integrations': { ...integration, service_name: 'fuzz-new' },
    'PUT /api/admin/integrations/:service': integration,
    'POST /api/oauth/state': { integration_name: fixture.serviceName },
    'POST /api/auth/sign-up/email': {
      email: 'fuzz@example.com',
      password: 'correct-horse-battery',
      name: 'Fuzz',
    },
    'POST /api/auth/sign-in/email': { email: fixture.user.email, password: 'wrong-password' },
    'POST /api/auth/organization/create': { name: 'Fuzz org', slug: 'fuzz-org' },
    'POST /api/auth/organization/set-active': { organizationId: fixture.organizationId },
    'POST /api/auth/organization/invite-member': {
      email: 'invitee@example.com',
      role: 'member',
      organizationId: fixture.organizationId,
    },
    'POST /api/auth/organization/accept-invitation': { invitationId: nobody },
    'POST /api/auth/organization/reject-invitation': { invitationId: nobody },
    'POST /api/auth/organization/cancel-invitation': { invitationId: nobody },
    'POST /api/auth/organization/leave': { organizationId: nobody },
  }
}

/** Hostile values for one field, as raw JSON text. */
function hostileValue(random: Random, maxBytes: number): { name: string; value: string } {
  const kind = random.pick([
    'deep',
    'string',
    'array',
    'type',
    'nul',
    'surrogate',
    'number',
    'keys',
  ] as const)
  switch (kind) {
    case 'deep': {
      const depth = random.pick([60, 65, 1_000, 10_000])
      const value = random.next() < 0.5 ? deepArray(depth) : deepObject(depth)
      return { name: `nested ${depth} deep`, value }
    }
    case 'string': {
      const length = random.pick([1_000, 20_001, 100_001, 900_000, maxBytes - 200])
      return { name: `string of ${length}`, value: quoted('x'.repeat(length)) }
    }
    case 'array': {
      const length = random.pick([10_000, 50_000])
      const item = random.pick(['0', '"x"', '{}', 'null'])
      return {
        name: `array of ${length} ${item}`,
        value: `[${Array(length).fill(item).join(',')}]`,
      }
    }
    case 'type': {
      const value = random.pick(['0', 'true', 'null', '[]', '{}', '"x"', '[{}]', '""', '" "'])
      return { name: `type ${value}`, value }
    }
    case 'nul': {
      const value = random.pick(['"a\\u0000b"', '"\\u0000"', '["\\u0000"]', '{"\\u0000":1}'])
      return { name: `NUL ${value}`, value }
    }
    case 'surrogate': {
      const value = random.pick([
        '"\\ud800"',
        '"x\\udc00y"',
        '"\\udbff\\udbff"',
        '{"\\ud800":"\\udfff"}',
      ])
      return { name: `lone surrogate ${value}`, value }
    }
    case 'number': {
      const value = random.pick([
        '1e308',
        '-1e308',
        '1e400',
        '-1e400',
        '-1',
        '1.5',
        '-0',
        '9007199254740993',
        '1e-400',
        '-2147483649',
      ])
      return { name: `number ${value}`, value }
    }
    case 'keys': {
      const count = random.pick([1_000, 20_000])
      const entries: [string, string][] = []
      for (let index = 0; index < count; index++) entries.push([quoted(`k${index}`), '1'])
      return { name: `object of ${count} keys`, value: objectText(entries) }
    }
  }
}

/** Bodies that are wrong as a whole, not in one field. */
function hostileBody(random: Random, example: Record<string, unknown>): FuzzCase {
  const exampleText = JSON.stringify(example)
  const fields = Object.entries(example).map(([key, value]): [string, string] => [
    quoted(key),
    JSON.stringify(value),
  ])
  const kind = random.pick(['deep', 'empty', 'invalid', 'prototype', 'shape'] as const)
  switch (kind) {
    case 'deep': {
      const depth = random.pick([65, 10_000, 100_000])
      return {
        name: `body nested ${depth} deep`,
        body: random.next() < 0.5 ? deepArray(depth) : deepObject(depth),
      }
    }
    case 'empty':
      return { name: 'empty body', body: random.pick(['', ' ', '\n']) }
    case 'invalid': {
      const body = random.pick([
        '{',
        '{"a":',
        'nul',
        '[1,]',
        '{"a":1}}',
        '\ufeff{}',
        "{'a':1}",
        'NaN',
        '{"a":NaN}',
        '"\\ud800',
        `${exampleText}x`,
      ])
      return { name: `invalid JSON ${body}`, body }
    }
    case 'prototype': {
      const extra = random.pick([
        ['"__proto__"', exampleText],
        ['"__proto__"', '{"isAdmin":true,"role":"admin"}'],
        ['"__proto__"', 'null'],
        ['"constructor"', '{"prototype":{"polluted":true}}'],
        ['"toString"', '1'],
        ['"hasOwnProperty"', '"x"'],
      ] as [string, string][])
      return {
        name: `prototype key ${extra[0]}: ${extra[1]}`,
        body: objectText([extra, ...fields]),
      }
    }
    case 'shape': {
      const body = random.pick(['[]', 'null', '"text"', '123', 'true', `[${exampleText}]`])
      return { name: `body ${body.slice(0, 40)}`, body }
    }
  }
}

/** The example with one field replaced by raw JSON text. */
function withField(example: Record<string, unknown>, key: string, value: string) {
  const entries = Object.entries(example)
    .filter(([field]) => field !== key)
    .map(([field, item]): [string, string] => [quoted(field), JSON.stringify(item)])
  return objectText([...entries, [quoted(key), value]])
}

/** Fixed cases first (every field of the example once huge, once deep), then seeded random ones. */
function fuzzCases(
  random: Random,
  example: Record<string, unknown>,
  maxBytes: number,
  count: number,
) {
  const huge = quoted('x'.repeat(Math.min(900_000, maxBytes - 4096)))
  const cases: FuzzCase[] = [
    { name: 'body nested 10000 deep', body: deepArray(10_000) },
    { name: 'field nested 10000 deep', body: withField(example, 'extra', deepObject(10_000)) },
    { name: 'empty body', body: '' },
    { name: 'invalid JSON', body: '{"' },
    ...Object.keys(example).flatMap((key) => [
      { name: `"${key}": string of ${huge.length - 2}`, body: withField(example, key, huge) },
      { name: `"${key}": nested 10000 deep`, body: withField(example, key, deepObject(10_000)) },
    ]),
  ]
  const keys = [...Object.keys(example), 'extra']
  while (cases.length < count) {
    if (random.next() < 0.3) {
      cases.push(hostileBody(random, example))
      continue
    }
    const key = random.pick(keys)
    const { name, value } = hostileValue(random, maxBytes)
    cases.push({ name: `"${key}": ${name}`, body: withField(example, key, value) })
  }
  return cases
}

/** Every route that takes a body: Sprout's own and the better-auth endpoints that are reachable. */
function writeRoutes(harness: TestApp): Route[] {
  const routes = new Map<string, Route>()
  for (const route of harness.app.routes) {
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method)) continue
    if (!route.path.startsWith('/api/') || route.path.startsWith('/api/auth/')) continue
    routes.set(`${route.method} ${route.path}`, { method: route.method, path: route.path })
  }
  for (const endpoint of allowedAuthEndpoints) {
    const [method = '', path = ''] = endpoint.split(' ')
    if (method !== 'GET')
      routes.set(`${method} /api/auth${path}`, { method, path: `/api/auth${path}` })
  }
  return [...routes.values()].sort((a, b) =>
    `${a.method} ${a.path}`.localeCompare(`${b.method} ${b.path}`),
  )
}

/**
 * The path with real ids of the fixture. A DELETE, or a deploy (a build, seconds each), gets ids
 * that name nothing: the fixture survives and the run stays short. A parameter nobody knows yet
 * gets such an id too.
 */
function concretePath(route: Route, fixture: Fixture): string {
  const values: Record<string, string> = {
    group: fixture.groupId,
    key: fixture.secretKey,
    service: fixture.serviceName,
    projectId: fixture.projectId,
  }
  const idOf = (path: string) => {
    if (path.startsWith('/api/explorations/')) return fixture.explorationId
    if (/^\/api\/(demo\/)?applications\//.test(path)) return fixture.applicationId
    return nobody
  }
  return route.path.replace(/:([A-Za-z]+)(\{[^}]*\})?/g, (_match, name: string) => {
    if (route.method === 'DELETE' || route.path.endsWith('/deploy')) {
      return name === 'projectId' ? '999999' : nobody
    }
    return name === 'id' ? idOf(route.path) : (values[name] ?? nobody)
  })
}

describe('fuzzing every write route with hostile bodies', { timeout: 120_000 }, () => {
  let harness: TestApp
  let fixture: Fixture

  beforeAll(async () => {
    harness = await createTestApp()
    const user = await harness.signUpAdmin()
    const organizationId = await harness.createOrganization(user, 'Fuzzed')
    const call = async (path: string, init: RequestInit = {}) => {
      const response = await harness.request(path, {
        ...init,
        user,
        headers: { 'organization-id': organizationId, ...init.headers },
      })
      if (response.status >= 400) throw new Error(`${path}: ${await response.text()}`)
      return response
    }
    const post = (path: string, body: unknown) =>
      call(path, { method: 'POST', body: JSON.stringify(body) })
    const created = await post('/api/applications', {
      initial_prompt: 'Fuzz target',
      model: 'demo',
    })
    const applicationId = ((await created.json()) as { id: string }).id
    const application = (await (await call(`/api/applications/${applicationId}`)).json()) as {
      dsn: string
      preview_url: string
    }
    const dsn = new URL(application.dsn)
    const projectId = dsn.pathname.replace(/^\//, '')
    const event = {
      event_id: crypto.randomUUID().replaceAll('-', ''),
      exception: { values: [{ type: 'Error', value: 'Fuzz' }] },
    }
    const envelope = `{}\n{"type":"event"}\n${JSON.stringify(event)}\n`
    await call(`/api/${projectId}/envelope/?sentry_key=${dsn.username}`, {
      method: 'POST',
      body: envelope,
      headers: { 'content-type': 'text/plain' },
    })
    const groups = (await (
      await call(`/api/applications/${applicationId}/error-groups`)
    ).json()) as {
      groups: { id: string }[]
    }
    await post(`/api/applications/${applicationId}/vault`, { key: 'FUZZ_SECRET', value: 'x' })
    const exploration = (await (await post('/api/explorations', {})).json()) as { id: string }
    const serviceName = 'fuzz-service'
    await post('/api/admin/integrations', {
      service_name: serviceName,
      client_id: 'fuzz-client',
      client_secret: 'fuzz-secret',
      auth_url: 'https://auth.example.com/authorize',
      token_url: 'https://auth.example.com/token',
    })
    fixture = {
      user,
      organizationId,
      applicationId,
      explorationId: exploration.id,
      groupId: groups.groups[0]?.id ?? '',
      secretKey: 'FUZZ_SECRET',
      serviceName,
      projectId,
      sentryKey: dsn.username,
      previewUrl: application.preview_url,
    }
  }, 60_000)
  afterAll(() => harness.close())

  it('names the depth limit and the oversized field in its 400s', async () => {
    const deep = deepArray(10_000)
    const tooDeep = `nests arrays and objects more than ${JSON_MAX_DEPTH} levels deep`
    for (const path of ['/api/applications', '/api/auth/organization/create']) {
      const response = await harness.request(path, {
        method: 'POST',
        user: fixture.user,
        headers: { 'organization-id': fixture.organizationId },
        body: deep,
      })
      expect(response.status, path).toBe(400)
      expect(await response.json()).toEqual({ error: `The JSON body ${tooDeep}` })
    }
    const event = `{"event_id":"${'f022'.repeat(8)}","tags":${deepObject(JSON_MAX_DEPTH)}}`
    const ingest = await send(
      { method: 'POST', path: '/api/:projectId{[0-9]+}/envelope/' },
      { name: 'deep event', body: event },
    )
    expect(ingest.status).toBe(400)
    expect(await ingest.json()).toEqual({ error: `The event in item 1 ${tooDeep}` })

    const slug = await harness.request('/api/auth/organization/create', {
      method: 'POST',
      user: fixture.user,
      body: JSON.stringify({ name: 'Big slug', slug: 'x'.repeat(900_000) }),
    })
    expect(slug.status).toBe(400)
    expect(await slug.json()).toEqual({
      error: `Invalid field "slug": must be at most ${ORGANIZATION_SLUG_MAX} characters`,
    })
  })

  it('answers no request with a 5xx, and every refusal with { "error": … }', async () => {
    const random = createRandom(seed)
    const routes = writeRoutes(harness)
    const examples = exampleBodies(fixture)
    const perRoute = Math.max(casesPerRoute, Math.ceil(minimumRequests / routes.length))
    const failures: string[] = []
    let sent = 0
    for (const route of routes) {
      const key = `${route.method} ${route.path}`
      const cases = fuzzCases(random, examples[key] ?? {}, harness.config.maxBodyBytes, perRoute)
      for (const fuzzCase of cases) {
        const response = await send(route, fuzzCase)
        sent++
        const problem = await problemOf(response)
        if (problem) failures.push(`${key} with ${fuzzCase.name}: ${problem}`)
      }
    }
    expect(sent).toBeGreaterThanOrEqual(minimumRequests)
    expect(failures, failures.join('\n')).toEqual([])
  })

  const send = (route: Route, fuzzCase: FuzzCase) => {
    const path = concretePath(route, fixture)
    const signsOut = route.path === '/api/auth/sign-out'
    if (path.endsWith('/envelope/')) {
      // The event item of a Sentry envelope is JSON too.
      const body = `{}\n{"type":"event"}\n${fuzzCase.body}\n`
      return harness.request(`${path}?sentry_key=${fixture.sentryKey}`, {
        method: route.method,
        body,
        headers: { 'content-type': 'text/plain' },
      })
    }
    return harness.request(path, {
      method: route.method,
      body: fuzzCase.body,
      user: signsOut ? undefined : fixture.user,
      headers: { 'organization-id': fixture.organizationId },
    })
  }
})

async function problemOf(response: Response): Promise<string | undefined> {
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    await response.body?.cancel()
    return response.status >= 500 ? `${response.status} (a stream)` : undefined
  }
  const text = await response.text()
  if (response.status >= 500) return `${response.status} ${text.slice(0, 300)}`
  if (response.status < 400) return undefined
  try {
    const body = JSON.parse(text) as { error?: unknown }
    if (typeof body.error === 'string' && body.error) return undefined
  } catch {}
  return `${response.status} without { "error": … }: ${text.slice(0, 300)}`
}
