import { schema } from '@sprout/db/schema.ts'
import { redirectTargetMessage } from '@sprout/protocol/api/redirect-target.ts'
import { unsafeRedirectTargets } from '@sprout/protocol/testing/unsafe-redirect-targets.ts'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../testing/use-app-harness.ts'

// Issue 29, item 8: better-auth took `/.//evil.example` as an errorCallbackURL and its callback
// answered a failed sign-in with `Location: //evil.example?error=…`. Every target is now checked
// by the web app's rule (packages/protocol/src/api/redirect-target.ts) before any endpoint runs.
describe('redirect targets handed to better-auth', () => {
  const setup = useTestApp()

  const post = (path: string, body: Record<string, unknown>, cookie?: string) =>
    setup.harness.request(`/api/auth${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: cookie ? { cookie } : {},
    })

  const expectRefused = async (response: Response, field: string, target: string) => {
    expect(response.status, `${field} ${JSON.stringify(target)}`).toBe(400)
    expect(response.headers.get('location')).toBeNull()
    // A NUL byte is refused earlier, by the guard of every request (docs/security.md).
    const error = target.includes('\u0000')
      ? `Invalid field "${field}": contains a NUL byte`
      : redirectTargetMessage(field)
    expect(((await response.json()) as { error: string }).error).toBe(error)
  }

  it('refuses every spelling of another site in each field of single sign-on', async () => {
    for (const field of ['callbackURL', 'errorCallbackURL', 'newUserCallbackURL']) {
      for (const target of unsafeRedirectTargets) {
        const body = { provider: 'sso', callbackURL: '/', [field]: target }
        await expectRefused(await post('/sign-in/social', body), field, target)
      }
    }
  })

  it('refuses them in sign-up, sign-in, mails and address changes, and changes nothing', async () => {
    const user = await setup.harness.signUp()
    // Side by side: 'Forgot password?' answers no sooner than 250 ms, refused or not.
    await Promise.all(
      unsafeRedirectTargets.map(async (target) => {
        const email = `redirect-${crypto.randomUUID().slice(0, 8)}@example.com`
        const signUp = { email, password: 'correct-horse-battery', name: 'R', callbackURL: target }
        await expectRefused(await post('/sign-up/email', signUp), 'callbackURL', target)
        const signIn = { email: user.email, password: 'correct-horse-battery', callbackURL: target }
        await expectRefused(await post('/sign-in/email', signIn), 'callbackURL', target)
        const reset = { email: user.email, redirectTo: target }
        await expectRefused(await post('/request-password-reset', reset), 'redirectTo', target)
        const verify = { email: user.email, callbackURL: target }
        await expectRefused(await post('/send-verification-email', verify), 'callbackURL', target)
        const change = { newEmail: email, callbackURL: target }
        await expectRefused(await post('/change-email', change, user.cookie), 'callbackURL', target)
      }),
    )
    const session = await setup.harness.request('/api/auth/get-session', { user })
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(user.email)
    const accounts = await setup.harness.database.db.select().from(schema.user)
    expect(accounts.map((account) => account.email)).toEqual([user.email])
  })

  it('refuses them in the query of a mailed verification link', async () => {
    for (const target of ['/.//evil.example', '/%2e//evil.example', 'https://evil.example']) {
      const query = new URLSearchParams({ token: 'not-a-token', callbackURL: target })
      const response = await setup.harness.request(`/api/auth/verify-email?${query}`)
      await expectRefused(response, 'callbackURL', target)
    }
    const twice =
      '/api/auth/verify-email?token=x&callbackURL=%2F&callbackURL=%2F.%2F%2Fevil.example'
    await expectRefused(await setup.harness.request(twice), 'callbackURL', '/.//evil.example')
  })

  it('still follows a path on this site', async () => {
    const email = `redirect-ok-${crypto.randomUUID().slice(0, 8)}@example.com`
    const body = { email, password: 'correct-horse-battery', name: 'R', callbackURL: '/settings' }
    expect((await post('/sign-up/email', body)).status).toBe(200)
    const query = new URLSearchParams({ token: 'not-a-token', callbackURL: '/settings' })
    const response = await setup.harness.request(`/api/auth/verify-email?${query}`)
    expect(new URL(response.headers.get('location') ?? '', setup.harness.origin).pathname).toBe(
      '/settings',
    )
  })
})
