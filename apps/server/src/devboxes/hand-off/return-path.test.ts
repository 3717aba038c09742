import { describe, expect, it } from 'vitest'
import { safeReturnUrl } from './return-path.ts'

const origin = 'http://my-app.preview.localhost:3000'

describe('the preview hand-off’s return URL', () => {
  it.each([
    ['/', `${origin}/`],
    ['/some/page?x=1#top', `${origin}/some/page?x=1#top`],
    ['/a/../b', `${origin}/b`],
    ['/.//evil.example', `${origin}/evil.example`],
    ['/..//evil.example', `${origin}/evil.example`],
    ['/%2e//evil.example', `${origin}/evil.example`],
    ['/x/..//evil.example', `${origin}/evil.example`],
  ])('keeps %s on the preview origin', (candidate, expected) => {
    expect(safeReturnUrl(candidate, origin)).toBe(expected)
  })

  it.each([
    undefined,
    '',
    '//evil.example',
    '///evil.example',
    'https://evil.example/',
    'https:evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    '/\tevil',
    '/\n/evil.example',
    'evil.example',
  ])('sends %j to the root', (candidate) => {
    expect(safeReturnUrl(candidate, origin)).toBe(`${origin}/`)
  })

  it('never answers a location a browser could read as another host', () => {
    for (const candidate of ['/%2F/evil.example', '/%5C/evil.example', '/%09/evil.example']) {
      const location = new URL(safeReturnUrl(candidate, origin))
      expect(location.origin).toBe(origin)
    }
  })
})
