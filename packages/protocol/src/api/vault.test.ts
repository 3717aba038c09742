import { describe, expect, it } from 'vitest'
import { isReservedSecretKey, secretKeyProblem } from './vault.ts'

describe('secretKeyProblem', () => {
  it("refuses every name Sprout sets in an app's environment, saying so", () => {
    for (const key of [
      'SENTRY_DSN',
      'SPROUT_APP_TOKEN',
      'SPROUT_INTERNAL_URL',
      'SPROUT_X',
      'HOME',
    ]) {
      expect(isReservedSecretKey(key)).toBe(true)
      expect(secretKeyProblem(key)).toBe(
        `Key "${key}" is reserved: Sprout sets ${key} itself in the app's environment, so a secret of that name would be overridden. Choose another name`,
      )
    }
    for (const key of ['SENTRY_AUTH_TOKEN', 'OPENAI_API_KEY', 'MY_SPROUT_KEY', 'PATHS']) {
      expect(secretKeyProblem(key)).toBeUndefined()
    }
  })
})
