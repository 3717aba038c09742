import { isReservedSecretKey } from '@sprout/protocol/api/vault.ts'
import { describe, expect, it } from 'vitest'
import { boxEnvironment } from './box-environment.ts'

describe('boxEnvironment', () => {
  it('sets only names the vault refuses, so no secret is silently overridden', () => {
    const names = Object.keys(boxEnvironment('/workspace'))
    expect(names.length).toBeGreaterThan(5)
    for (const name of names) expect(isReservedSecretKey(name.toUpperCase()), name).toBe(true)
  })
})
