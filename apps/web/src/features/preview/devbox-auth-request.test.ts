import { describe, expect, it } from 'vitest'
import {
  MALFORMED_AUTH_ERROR,
  MISSING_DEVBOX_ERROR,
  parseDevboxAuthRequest,
} from './devbox-auth-request.ts'
import { devboxCallbackUrl } from './devbox-token.ts'

const devbox = 'http://todo-3f9a1c.preview.localhost:3000'
const parse = (query: string) => parseDevboxAuthRequest(new URLSearchParams(query))
const base64 = (value: string) => btoa(String.fromCharCode(...new TextEncoder().encode(value)))

describe('parseDevboxAuthRequest', () => {
  it('reads the plain devbox and return parameters', () => {
    const query = new URLSearchParams({ devbox, return: '/todos?done=1' })
    expect(parse(query.toString())).toEqual({
      ok: true,
      request: { devboxUrl: devbox, returnPath: '/todos?done=1' },
    })
  })

  it("returns to '/' when no return is given", () => {
    expect(parse(new URLSearchParams({ devbox }).toString())).toEqual({
      ok: true,
      request: { devboxUrl: devbox, returnPath: '/' },
    })
  })

  it('reads a base64 JSON auth parameter with devbox and return', () => {
    const auth = base64(JSON.stringify({ devbox, return: '/about' }))
    expect(parse(`auth=${encodeURIComponent(auth)}`)).toEqual({
      ok: true,
      request: { devboxUrl: devbox, returnPath: '/about' },
    })
  })

  it('accepts base64url, missing padding, and a + that the query turned into a space', () => {
    const json = JSON.stringify({ devbox, return: '/ü?x=>>>' })
    const standard = base64(json)
    const url = standard.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
    expect(parse(`auth=${url}`)).toMatchObject({ ok: true, request: { returnPath: '/ü?x=>>>' } })
    expect(parse(`auth=${standard}`)).toMatchObject({ ok: true, request: { devboxUrl: devbox } })
  })

  it('says the auth parameter is malformed when it is not base64, not JSON or not an object', () => {
    for (const auth of [
      '%%%not-base64%%%',
      base64('{"devbox": '),
      base64('"just a string"'),
      base64('[1]'),
      '',
    ]) {
      expect(parse(`auth=${encodeURIComponent(auth)}`)).toEqual({
        ok: false,
        error: MALFORMED_AUTH_ERROR,
      })
    }
  })

  it('says the devbox URL is missing when neither form names one', () => {
    expect(parse('')).toEqual({ ok: false, error: MISSING_DEVBOX_ERROR })
    expect(parse('return=/x')).toEqual({ ok: false, error: MISSING_DEVBOX_ERROR })
    expect(parse(`auth=${base64(JSON.stringify({ return: '/' }))}`)).toEqual({
      ok: false,
      error: MISSING_DEVBOX_ERROR,
    })
    expect(parse('devbox=not%20a%20url')).toEqual({ ok: false, error: MISSING_DEVBOX_ERROR })
    expect(parse('devbox=javascript:alert(1)')).toEqual({ ok: false, error: MISSING_DEVBOX_ERROR })
  })

  it('only returns to a path on the dev box, never to another origin', () => {
    for (const target of ['https://evil.example/', '//evil.example/', '/\\evil.example', 'x']) {
      const query = new URLSearchParams({ devbox, return: target })
      expect(parse(query.toString())).toMatchObject({ ok: true, request: { returnPath: '/' } })
    }
  })
})

describe('devboxCallbackUrl', () => {
  it("points at the dev box origin's callback with the token and the return path", () => {
    const url = new URL(devboxCallbackUrl(`${devbox}/some/page`, 'a+b/c=', '/todos?x=1'))
    expect(url.origin).toBe(devbox)
    expect(url.pathname).toBe('/__sprout/auth/callback')
    expect(url.searchParams.get('token')).toBe('a+b/c=')
    expect(url.searchParams.get('return')).toBe('/todos?x=1')
  })
})
