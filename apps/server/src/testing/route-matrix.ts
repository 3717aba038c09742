import type { TestApp, TestUser } from './test-app.ts'

export const roles = [
  'anonymous',
  'member',
  'organizationAdmin',
  'platformAdmin',
  'otherOrganization',
] as const
export type Role = (typeof roles)[number]

/** What every matrix request can refer to: organization A, its people, and an outsider. */
export type MatrixFixture = {
  harness: TestApp
  organizationId: string
  users: Record<Exclude<Role, 'anonymous'>, TestUser>
  /** An application of organization A whose dev box is ready. */
  application: { id: string; previewUrl: string }
  /** Creates another application in organization A (for destructive calls). */
  createApplication: () => Promise<string>
}

export type MatrixRequest = { path: string; init?: RequestInit }

export type MatrixEntry = {
  request: (fixture: MatrixFixture) => MatrixRequest | Promise<MatrixRequest>
  /**
   * Expected status per role. Members, organization admins and the platform admin act in
   * organization A; the other organization's user acts in their own and asks for A's resources.
   */
  expect: Record<Role, number>
}

const json = (body: unknown): RequestInit => ({ body: JSON.stringify(body) })

/** Acts as organization A's admin (fixtures for the chat routes). */
async function asOrganizationAdmin(fixture: MatrixFixture, path: string, body: unknown) {
  const response = await fixture.harness.request(path, {
    method: 'POST',
    user: fixture.users.organizationAdmin,
    headers: { 'organization-id': fixture.organizationId },
    body: JSON.stringify(body),
  })
  if (response.status >= 400) throw new Error(`${path} failed: ${await response.text()}`)
  return (await response.json()) as { id?: string; conversation_id?: string }
}

/** A conversation of A's application; `idle`: its first run has ended (a new one may start). */
async function conversation(fixture: MatrixFixture, idle = true): Promise<string> {
  const sent = await asOrganizationAdmin(
    fixture,
    `/api/demo/applications/${fixture.application.id}/message`,
    { message: 'Hello from the route matrix', model: 'demo' },
  )
  const conversationId = sent.conversation_id ?? ''
  if (idle) await fixture.harness.created.conversations.runs.settled(conversationId)
  return conversationId
}

/** An exploration of organization A; `idle`: its first run has ended. */
async function exploration(fixture: MatrixFixture, idle = true): Promise<string> {
  const created = await asOrganizationAdmin(fixture, '/api/explorations', {
    message: 'An app for my book club',
    model: 'demo',
  })
  const explorationId = created.id ?? ''
  if (idle) await fixture.harness.created.conversations.runs.settled(explorationId)
  return explorationId
}

const everyoneSignedIn = (status: number): Record<Role, number> => ({
  anonymous: 401,
  member: status,
  organizationAdmin: status,
  platformAdmin: status,
  otherOrganization: status,
})

/**
 * Every API route × role → status. A route registered on the app but missing here fails the
 * tenant-isolation test; every later area adds its routes.
 */
export const routeMatrix: Record<string, MatrixEntry> = {
  'GET /api/admin/status': {
    request: () => ({ path: '/api/admin/status' }),
    expect: everyoneSignedIn(200),
  },
  'GET /api/models': {
    request: () => ({ path: '/api/models' }),
    expect: everyoneSignedIn(200),
  },
  'GET /api/organizations': {
    request: ({ organizationId }) => ({ path: `/api/organizations?clerk_id=${organizationId}` }),
    expect: { ...everyoneSignedIn(200), otherOrganization: 404 },
  },
  'GET /api/applications': {
    request: () => ({ path: '/api/applications' }),
    expect: everyoneSignedIn(200),
  },
  'POST /api/applications': {
    request: () => ({
      path: '/api/applications',
      init: json({ name: 'Matrix app', initial_prompt: 'A tiny counter', model: 'demo' }),
    }),
    expect: everyoneSignedIn(201),
  },
  'GET /api/applications/:id': {
    request: ({ application }) => ({ path: `/api/applications/${application.id}` }),
    expect: { ...everyoneSignedIn(200), otherOrganization: 404 },
  },
  'DELETE /api/applications/:id': {
    request: async ({ createApplication }) => ({
      path: `/api/applications/${await createApplication()}`,
    }),
    expect: { ...everyoneSignedIn(200), otherOrganization: 404 },
  },
  'GET /api/applications/:id/editor-ready': {
    request: ({ application }) => ({ path: `/api/applications/${application.id}/editor-ready` }),
    expect: { ...everyoneSignedIn(200), otherOrganization: 404 },
  },
  'POST /api/applications/:id/deploy': {
    request: ({ application }) => ({ path: `/api/applications/${application.id}/deploy` }),
    expect: { ...everyoneSignedIn(403), platformAdmin: 200 },
  },
  'POST /api/org/devbox-token': {
    request: ({ application }) => ({
      path: '/api/org/devbox-token',
      init: json({ devbox_url: application.previewUrl }),
    }),
    expect: { ...everyoneSignedIn(200), otherOrganization: 404 },
  },
  'GET /api/admin/pool/stats': {
    request: () => ({ path: '/api/admin/pool/stats' }),
    expect: { ...everyoneSignedIn(403), platformAdmin: 200 },
  },
  'POST /api/admin/pool/cycle': {
    request: () => ({ path: '/api/admin/pool/cycle', init: json({ pack_type: 'vite-react' }) }),
    expect: { ...everyoneSignedIn(403), platformAdmin: 200 },
  },
  'GET /api/demo/applications/:id/conversations': {
    request: ({ application }) => ({
      path: `/api/demo/applications/${application.id}/conversations`,
    }),
    expect: { ...everyoneSignedIn(200), otherOrganization: 404 },
  },
  'POST /api/demo/applications/:id/message': {
    request: ({ application }) => ({
      path: `/api/demo/applications/${application.id}/message`,
      init: json({ message: 'Hello', model: 'demo' }),
    }),
    expect: { ...everyoneSignedIn(200), otherOrganization: 404 },
  },
  'POST /api/demo/applications/:id/stage-message': {
    request: async (fixture) => ({
      path: `/api/demo/applications/${fixture.application.id}/stage-message`,
      init: json({ message: 'Later', conversation_id: await conversation(fixture) }),
    }),
    expect: { ...everyoneSignedIn(200), otherOrganization: 404 },
  },
  'DELETE /api/demo/applications/:id/stage-message': {
    request: async (fixture) => ({
      path: `/api/demo/applications/${fixture.application.id}/stage-message?conversation_id=${await conversation(fixture)}&client_id=never-staged`,
    }),
    expect: { ...everyoneSignedIn(200), otherOrganization: 404 },
  },
  'POST /api/demo/applications/:id/interrupt': {
    request: async (fixture) => ({
      path: `/api/demo/applications/${fixture.application.id}/interrupt?conversation_id=${await conversation(fixture, false)}`,
    }),
    expect: { ...everyoneSignedIn(200), otherOrganization: 404 },
  },
  'POST /api/demo/applications/:id/continue': {
    request: async (fixture) => ({
      path: `/api/demo/applications/${fixture.application.id}/continue?conversation_id=${await conversation(fixture)}`,
    }),
    expect: { ...everyoneSignedIn(200), otherOrganization: 404 },
  },
  'GET /api/demo/applications/:id/listen': {
    request: async (fixture) => ({
      path: `/api/demo/applications/${fixture.application.id}/listen?conversation_id=${await conversation(fixture, false)}`,
    }),
    expect: { ...everyoneSignedIn(200), otherOrganization: 404 },
  },
  'POST /api/explorations': {
    request: () => ({ path: '/api/explorations', init: json({}) }),
    expect: everyoneSignedIn(201),
  },
  'GET /api/explorations/:id': {
    request: async (fixture) => ({
      path: `/api/explorations/${await exploration(fixture, false)}`,
    }),
    expect: { ...everyoneSignedIn(200), otherOrganization: 404 },
  },
  'POST /api/explorations/:id/message': {
    request: async (fixture) => ({
      path: `/api/explorations/${await exploration(fixture)}/message`,
      init: json({ message: 'Make it about sci-fi', model: 'demo' }),
    }),
    expect: { ...everyoneSignedIn(200), otherOrganization: 404 },
  },
  'POST /api/explorations/:id/interrupt': {
    request: async (fixture) => ({
      path: `/api/explorations/${await exploration(fixture, false)}/interrupt`,
    }),
    expect: { ...everyoneSignedIn(200), otherOrganization: 404 },
  },
  'POST /api/explorations/:id/continue': {
    request: async (fixture) => ({
      path: `/api/explorations/${await exploration(fixture)}/continue`,
    }),
    expect: { ...everyoneSignedIn(200), otherOrganization: 404 },
  },
  'POST /api/explorations/:id/listen': {
    request: async (fixture) => ({
      path: `/api/explorations/${await exploration(fixture, false)}/listen`,
      init: json({}),
    }),
    expect: { ...everyoneSignedIn(200), otherOrganization: 404 },
  },
}
