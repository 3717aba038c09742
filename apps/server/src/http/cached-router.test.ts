import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { CachedRouter } from './cached-router.ts'

describe('CachedRouter', () => {
  const build = () => {
    const app = new Hono({ router: new CachedRouter() })
    app.use('/api/*', async (context, next) => {
      context.header('x-seen', 'yes')
      await next()
    })
    app.get('/api/items/:id', (context) => context.json({ id: context.req.param('id') }))
    // A pattern hono's RegExpRouter refuses, as the product's routes hold: the trie answers.
    app.post('/api/:projectId{[0-9]+}/envelope/', (context) =>
      context.json({ project: context.req.param('projectId') }),
    )
    return app
  }

  it('answers each path with its own params, the first time and every time after', async () => {
    const app = build()
    for (let round = 0; round < 3; round++) {
      for (const id of ['a', 'b', 'c%20d']) {
        const response = await app.request(`/api/items/${id}`)
        expect(response.headers.get('x-seen')).toBe('yes')
        expect(await response.json()).toEqual({ id: decodeURIComponent(id) })
      }
    }
    const envelope = await app.request('/api/42/envelope/', { method: 'POST' })
    expect(await envelope.json()).toEqual({ project: '42' })
    expect((await app.request('/api/items/a', { method: 'POST' })).status).toBe(404)
    expect((await app.request('/api/abc/envelope/', { method: 'POST' })).status).toBe(404)
  })

  it('refuses a route added after requests were answered, as hono does', async () => {
    const app = build()
    const plain = new Hono()
    plain.get('/x', (context) => context.text('x'))
    await plain.request('/x')
    expect(() => plain.get('/late', (context) => context.text('late'))).toThrow(/already built/)
    await app.request('/api/items/a')
    expect(() => app.get('/api/late', (context) => context.text('late'))).toThrow(/already built/)
  })

  it('stays right past the number of paths it remembers', async () => {
    const app = build()
    for (let index = 0; index < 2100; index++) await app.request(`/api/items/${index}`)
    expect(await (await app.request('/api/items/0')).json()).toEqual({ id: '0' })
    expect(await (await app.request('/api/items/2099')).json()).toEqual({ id: '2099' })
  })
})
