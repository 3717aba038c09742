import { describe, expect, it } from 'vitest'
import { unsafeRedirectTargets } from '../testing/unsafe-redirect-targets.ts'
import { isSafeRedirectPath } from './redirect-target.ts'

// Issue 29, item 8.

describe('isSafeRedirectPath', () => {
  it('takes paths on this site', () => {
    for (const target of [
      '/',
      '/applications',
      '/account',
      '/a/b/',
      '/x?tab=files#top',
      '/a%20b',
    ]) {
      expect(isSafeRedirectPath(target), target).toBe(true)
    }
    expect(isSafeRedirectPath('/next?to=//evil.example')).toBe(true)
  })

  it('refuses every spelling of another site', () => {
    for (const target of unsafeRedirectTargets) {
      expect(isSafeRedirectPath(target), JSON.stringify(target)).toBe(false)
    }
    expect(isSafeRedirectPath(undefined)).toBe(false)
    expect(isSafeRedirectPath(['/'])).toBe(false)
  })
})
