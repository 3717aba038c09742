import { describe, expect, it } from 'vitest'
import { useTestApp } from '../testing/use-app-harness.ts'
import { signUpRefusals } from './sign-up-rules.ts'

// docs/product/auth.md "Sign-up rules": the environment's defaults, the admin's stored choice,
// and invited addresses that always get in.
describe('sign-up rules', () => {
  const setup = useTestApp({ SIGNUP: 'closed', ADMIN_EMAILS: 'boss@example.com' })
  const signUp = (email: string) =>
    setup.harness.request('/api/auth/sign-up/email', {
      method: 'POST',
      body: JSON.stringify({ email, password: 'correct-horse-battery', name: 'N' }),
    })
  const options = async () => (await setup.harness.request('/api/sign-in-options')).json()

  it('refuses a stranger when closed, lets ADMIN_EMAILS and invited addresses in', async () => {
    const refused = await signUp('stranger@example.com')
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { error: string }).error).toBe(signUpRefusals.closed)
    expect(await options()).toMatchObject({ signUp: 'closed', signUpDomains: [], mail: false })

    const boss = await setup.harness.signUpWith({ email: 'boss@example.com' })
    const organizationId = await setup.harness.createOrganization(boss, 'Team')
    const invited = await setup.harness.request('/api/auth/organization/invite-member', {
      method: 'POST',
      user: boss,
      body: JSON.stringify({ email: 'Guest@Example.com', role: 'member', organizationId }),
    })
    expect(invited.status).toBe(200)
    expect((await signUp('guest@example.com')).status).toBe(200)
    expect((await signUp('guest2@example.com')).status).toBe(403)
  })

  it('lets the admin change the rules, and nobody else', async () => {
    const boss = await setup.harness
      .signUpWith({ email: `x${Date.now()}@example.com` })
      .catch(() => undefined)
    expect(boss).toBeUndefined()
    const admin = await setup.harness.request('/api/auth/sign-in/email', {
      method: 'POST',
      body: JSON.stringify({ email: 'boss@example.com', password: 'correct-horse-battery' }),
    })
    const cookie = admin.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ')
    const put = (body: unknown, headers: Record<string, string> = { cookie }) =>
      setup.harness.request('/api/admin/sign-up-rules', {
        method: 'PUT',
        headers,
        body: JSON.stringify(body),
      })

    for (const bad of [
      { mode: 'sometimes', domains: [] },
      { mode: 'open', domains: ['not a domain'] },
      { mode: 'open', domains: ['exa\u0000mple.com'] },
      { mode: 'open' },
      { mode: 'open', domains: Array.from({ length: 51 }, (_, index) => `d${index}.com`) },
    ]) {
      expect((await put(bad)).status, JSON.stringify(bad)).toBe(400)
    }
    expect(await options()).toMatchObject({ signUp: 'closed' })

    const saved = await put({ mode: 'open', domains: ['@Team.Example', 'team.example'] })
    expect(await saved.json()).toEqual({ mode: 'open', domains: ['team.example'] })
    expect(await options()).toMatchObject({ signUp: 'open', signUpDomains: ['team.example'] })
    const outside = await signUp('someone@elsewhere.org')
    expect(outside.status).toBe(403)
    expect(((await outside.json()) as { error: string }).error).toBe(
      signUpRefusals.domain(['team.example']),
    )
    expect((await signUp('someone@team.example')).status).toBe(200)

    // 'invite': the listed domain still may, others need an invitation.
    expect((await put({ mode: 'invite', domains: ['team.example'] })).status).toBe(200)
    expect((await signUp('another@team.example')).status).toBe(200)
    const uninvited = await signUp('someone@elsewhere.org')
    expect(((await uninvited.json()) as { error: string }).error).toBe(signUpRefusals.invite)

    const member = await setup.harness.signUpWith({ email: 'third@team.example' })
    const asMember = await put({ mode: 'open', domains: [] }, { cookie: member.cookie })
    expect(asMember.status).toBe(403)
    const anonymous = await put({ mode: 'open', domains: [] }, {})
    expect(anonymous.status).toBe(401)
    expect(await options()).toMatchObject({ signUp: 'invite' })
  })
})
