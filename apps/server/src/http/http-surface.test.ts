import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { useTestApp } from '../testing/use-app-harness.ts'
import { onError } from './on-error.ts'
import { parseJsonBody } from './parse-request.ts'

describe('the product origin', () => {
  const setup = useTestApp()

  it('answers /healthz', async () => {
    const response = await setup.harness.request('/healthz')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: 'ok' })
  })

  it('sends security headers', async () => {
    const response = await setup.harness.request('/healthz')
    const policy = response.headers.get('content-security-policy') ?? ''
    expect(policy).toContain("frame-ancestors 'none'")
    // The Google Picker API's script and frame, for the spreadsheet integration's file picker.
    expect(policy).toContain("script-src 'self' https://apis.google.com;")
    expect(policy).toContain(
      `frame-src http://*.preview.localhost:${setup.harness.port} https://docs.google.com;`,
    )
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('sends them on better-auth answers and API errors too', async () => {
    const user = await setup.harness.signUp()
    for (const [path, status] of [
      ['/api/auth/get-session', 200],
      ['/api/nothing-here', 404],
    ] as const) {
      const response = await setup.harness.request(path, { user })
      expect(response.status, path).toBe(status)
      expect(response.headers.get('x-frame-options'), path).toBe('DENY')
      expect(response.headers.get('content-security-policy'), path).toContain("object-src 'none'")
    }
  })

  it('sends them when Node serves the answer, on routes, errors and better-auth alike', async () => {
    // Served by Node they are set on its response before the route answers (security-headers.ts).
    await setup.harness.listen()
    const user = await setup.harness.signUp()
    const base = `http://127.0.0.1:${setup.harness.port}`
    for (const [path, status] of [
      ['/healthz', 200],
      ['/api/organizations?is_personal=true', 200],
      ['/api/organizations?is_personal=maybe', 400],
      ['/api/nothing-here', 404],
      ['/api/auth/get-session', 200],
    ] as const) {
      const response = await fetch(`${base}${path}`, {
        headers: { authorization: `Bearer ${user.token}` },
      })
      expect(response.status, path).toBe(status)
      expect(response.headers.get('x-frame-options'), path).toBe('DENY')
      expect(response.headers.get('content-security-policy'), path).toContain("object-src 'none'")
      expect(response.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin')
      expect(response.headers.get('cross-origin-opener-policy'), path).toBe('same-origin')
      expect(response.headers.get('content-type'), path).toMatch(/^application\/json/)
      await response.body?.cancel()
    }
  })

  it('answers unknown API routes with the error shape', async () => {
    const user = await setup.harness.signUp()
    const response = await setup.harness.request('/api/nothing-here', { user })
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'No such API route' })
  })

  it('keeps preview and apps hosts away from product routes and cookies', async () => {
    const user = await setup.harness.signUp()
    for (const host of ['my-app.preview.localhost:3000', 'my-app.apps.localhost:3000']) {
      for (const path of ['/api/admin/status', '/api/auth/get-session', '/healthz', '/']) {
        const response = await setup.harness.request(path, {
          user,
          as: 'cookie',
          headers: { host },
        })
        expect(response.status, `${host}${path}`).toBe(404)
        expect(response.headers.getSetCookie()).toEqual([])
      }
    }
  })
})

describe('request parsing', () => {
  const app = new Hono()
  app.onError(onError)
  app.post('/echo', async (context) => {
    const body = await parseJsonBody(context, z.object({ name: z.string(), count: z.number() }))
    return context.json(body)
  })
  const post = (body: string) =>
    app.request('/echo', { method: 'POST', body, headers: { 'content-type': 'application/json' } })

  it('refuses malformed JSON with a 400', async () => {
    const response = await post('{"name": ')
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: 'Malformed JSON body' })
  })

  it('names a missing field', async () => {
    const response = await post('{"count": 1}')
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: 'Missing field "name"' })
  })

  it('names a field of the wrong type', async () => {
    const response = await post('{"name": "a", "count": "one"}')
    expect(response.status).toBe(400)
    const { error } = (await response.json()) as { error: string }
    expect(error).toMatch(/^Invalid field "count"/)
  })

  it('passes a valid body through', async () => {
    const response = await post('{"name": "a", "count": 2}')
    expect(await response.json()).toEqual({ name: 'a', count: 2 })
  })
})
