import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { buttonNamed, cleanup, click, pageText, until } from '../../testing/render.tsx'
import { renderScreen } from '../../testing/render-screen.tsx'

const limitText = 'Too many invitations. Please wait 42 minutes and try again.'

// better-auth's client keeps the fetch it finds when it is made: the fake goes in first.
vi.stubGlobal('fetch', fakeServer())
const { InviteMemberForm } = await import('./invite-member-form.tsx')

afterEach(() => cleanup())

/** The server past the invitation limit (docs/product/organizations.md "Invitations"). */
function fakeServer() {
  return async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost')
    const method = input instanceof Request ? input.method : (init.method ?? 'GET')
    const json = (value: unknown, status = 200) =>
      new Response(JSON.stringify(value), {
        status,
        headers: { 'Content-Type': 'application/json' },
      })
    if (url.pathname === '/api/sign-in-options') {
      return json({ signUp: 'open', signUpDomains: [], mail: true, singleSignOn: null })
    }
    if (method === 'POST' && url.pathname === '/api/auth/organization/invite-member') {
      return json({ error: limitText }, 429)
    }
    return json({ error: 'Not found' }, 404)
  }
}

describe('InviteMemberForm', () => {
  it('shows the server’s limit text when inviting is refused with a 429', async () => {
    renderScreen(<InviteMemberForm organizationId="org-1" />)
    await until(() => document.querySelector('input[name="inviteEmail"]') !== null)
    const input = document.querySelector<HTMLInputElement>('input[name="inviteEmail"]')
    act(() => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
      setValue?.call(input, 'someone@example.net')
      input?.dispatchEvent(new Event('input', { bubbles: true }))
    })
    click(buttonNamed('Invite'))
    await until(() => pageText().includes(limitText))
    expect(pageText()).not.toContain('Invitation mailed')
  })
})
