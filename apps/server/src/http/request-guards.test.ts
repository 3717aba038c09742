import http from 'node:http'
import { beforeAll, describe, expect, it } from 'vitest'
import { useOrganizationHarness } from '../testing/organization-harness.ts'
import { findNulField, withErrorBody } from './request-guards.ts'

describe('request guards', () => {
  const setup = useOrganizationHarness({
    environment: { MAX_BODY_BYTES: String(64 * 1024) },
    organizationName: 'Guarded org',
    listen: true,
    timeoutMs: 60_000,
  })
  let applicationId: string
  const headers = setup.headers

  beforeAll(async () => {
    applicationId = await setup.createApplication('A page')
  }, 60_000)

  it('answers a NUL byte in a path with a 400 naming the parameter, changing nothing', async () => {
    for (const [method, path] of [
      ['GET', '/api/applications/%00'],
      ['DELETE', '/api/applications/%00'],
      ['GET', `/api/applications/${applicationId}%00`],
      ['GET', '/api/demo/applications/%00/conversations'],
      ['GET', '/api/demo/applications/%00/listen'],
      ['POST', '/api/demo/applications/%00/message'],
      ['POST', '/api/demo/applications/%00/stage-message'],
      ['POST', '/api/applications/%00/deploy'],
      ['GET', '/api/applications/%00/editor-ready'],
      ['POST', '/api/demo/applications/%00/interrupt'],
      ['POST', '/api/demo/applications/%00/continue'],
      ['GET', '/api/explorations/%00'],
      ['POST', '/api/explorations/%00/message'],
      ['POST', '/api/explorations/a%00b/interrupt'],
    ] as const) {
      const response = await setup.harness.request(path, {
        method,
        user: setup.owner,
        headers: headers(),
      })
      expect(response.status, `${method} ${path}`).toBe(400)
      expect(await response.json(), path).toEqual({
        error: 'Invalid path parameter "id": contains a NUL byte',
      })
    }
    // A path no route names still gets the 400, not a database error.
    for (const path of ['/api/organizations/%00', '/api/auth/%00/get-session']) {
      const response = await setup.harness.request(path, { user: setup.owner, headers: headers() })
      expect(response.status, path).toBe(400)
      expect(await response.json()).toEqual({
        error: 'Invalid path: it contains a NUL byte (%00)',
      })
    }
    const intact = await setup.harness.request(`/api/applications/${applicationId}`, {
      user: setup.owner,
      headers: headers(),
    })
    expect(intact.status).toBe(200)
  })

  it('names the query parameter or JSON field that holds a NUL byte', async () => {
    const query = await setup.harness.request(
      `/api/demo/applications/${applicationId}/conversation?conversation_id=a%00b`,
      { user: setup.owner, headers: headers() },
    )
    expect(query.status).toBe(400)
    expect(await query.json()).toEqual({
      error: 'Invalid query parameter "conversation_id": contains a NUL byte',
    })
    const body = await setup.harness.request('/api/applications', {
      method: 'POST',
      user: setup.owner,
      headers: headers(),
      body: JSON.stringify({ initial_prompt: 'a\u0000b', model: 'demo' }),
    })
    expect(body.status).toBe(400)
    expect(await body.json()).toEqual({
      error: 'Invalid field "initial_prompt": contains a NUL byte',
    })
    const signUp = await setup.harness.request('/api/auth/sign-up/email', {
      method: 'POST',
      body: JSON.stringify({
        email: 'nul@example.com',
        password: 'pass\u0000word-long',
        name: 'x',
      }),
    })
    expect(signUp.status).toBe(400)
    expect(await signUp.json()).toEqual({ error: 'Invalid field "password": contains a NUL byte' })
    expect(findNulField({ members: [{ name: 'ok' }, { name: 'b\u0000' }] })).toBe('members.1.name')
  })

  it('stores lone surrogates as U+FFFD instead of failing on them', async () => {
    const created = await setup.harness.request('/api/applications', {
      method: 'POST',
      user: setup.owner,
      headers: headers(),
      body: '{"name":"half \\ud800 pair","initial_prompt":"\\udfff","model":"demo"}',
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: string }
    const read = await setup.harness.request(`/api/applications/${id}`, {
      user: setup.owner,
      headers: headers(),
    })
    expect(((await read.json()) as { name: string }).name).toBe('half \ufffd pair')
    // better-auth's routes do not go through our parser; its writes must not fail either.
    const signUp = await setup.harness.request('/api/auth/sign-up/email', {
      method: 'POST',
      body: `{"email":"surrogate-${Date.now()}@example.com","password":"correct-horse-battery","name":"x\\ud800"}`,
    })
    expect(signUp.status).toBeLessThan(500)
  })

  it('answers a body that is not a JSON object with a 400, not a TypeError', async () => {
    for (const action of ['interrupt', 'continue']) {
      for (const body of ['null', '[]', '7', '"text"', '{']) {
        const response = await setup.harness.request(
          `/api/demo/applications/${applicationId}/${action}`,
          { method: 'POST', user: setup.owner, headers: headers(), body },
        )
        expect(response.status, `${action} ${body}`).toBe(400)
        expect(((await response.json()) as { error: string }).error).toMatch(
          /must be an object|Malformed JSON/,
        )
      }
    }
  })

  it('refuses a body past MAX_BODY_BYTES before parsing it, with or without a length', async () => {
    const large = JSON.stringify({ initial_prompt: 'x'.repeat(100 * 1024), model: 'demo' })
    const declared = await setup.harness.request('/api/applications', {
      method: 'POST',
      user: setup.owner,
      headers: headers(),
      body: large,
    })
    expect(declared.status).toBe(413)
    expect(await declared.json()).toEqual({
      error: 'Request body is too large: the limit is 65,536 bytes (MAX_BODY_BYTES)',
    })
    // Chunked, without a session, on better-auth's own route.
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: setup.harness.port,
          method: 'POST',
          path: '/api/auth/sign-in/email',
          headers: {
            host: `localhost:${setup.harness.port}`,
            origin: setup.harness.config.publicUrl,
            'content-type': 'application/json',
            'transfer-encoding': 'chunked',
          },
        },
        (response) => {
          let body = ''
          response.on('data', (chunk) => {
            body += chunk
          })
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
        },
      )
      request.on('error', reject)
      request.write(`{"email":"a@example.com","password":"${'p'.repeat(40 * 1024)}`)
      request.write(`${'p'.repeat(40 * 1024)}"}`)
      request.end()
    })
    expect(chunked.status).toBe(413)
    expect(JSON.parse(chunked.body)).toMatchObject({ error: expect.stringContaining('too large') })
  })

  it('gives every failure of better-auth the error shape', async () => {
    const empty = await withErrorBody(new Response(null, { status: 500 }))
    expect(empty.status).toBe(500)
    expect(await empty.json()).toEqual({ error: 'An error occurred' })
    const html = await withErrorBody(new Response('<h1>boom</h1>', { status: 503 }))
    expect(await html.json()).toEqual({ error: 'An error occurred' })
    const shaped = await withErrorBody(Response.json({ error: 'Kept' }, { status: 500 }))
    expect(await shaped.json()).toEqual({ error: 'Kept' })
    const refused = await withErrorBody(
      Response.json({ message: 'Invalid email or password', code: 'INVALID' }, { status: 401 }),
    )
    expect(await refused.json()).toEqual({
      message: 'Invalid email or password',
      code: 'INVALID',
      error: 'Invalid email or password',
    })
    const bare = await withErrorBody(new Response(null, { status: 404 }))
    expect(await bare.json()).toEqual({ error: 'Request failed' })
    const signIn = await setup.harness.request('/api/auth/sign-in/email', {
      method: 'POST',
      body: JSON.stringify({ email: setup.owner.email, password: 'not-the-password' }),
    })
    expect(signIn.status).toBe(401)
    expect(await signIn.json()).toMatchObject({ error: 'Invalid email or password' })
    const fine = new Response('ok', { status: 200 })
    expect(await withErrorBody(fine)).toBe(fine)
  })
})
