import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, click, render } from '../../testing/render.tsx'
import { AppAccessButton } from './app-access-button.tsx'
import type { AppAccess } from './app-access-dialog.tsx'

afterEach(cleanup)

function renderButton(access: AppAccess) {
  const container = render(
    <AppAccessButton access={access} organizationName="Acme" onSave={vi.fn()} />,
  )
  return container.querySelector<HTMLButtonElement>('button[aria-label="Who can open it"]')
}

describe('AppAccessButton', () => {
  it('is absent for someone who may not change who can open the app', () => {
    expect(
      renderButton({ visibility: 'organization', allowed_emails: [], visibility_choices: [] }),
    ).toBeNull()
  })

  it("opens 'Who can open it' with the app's current choice", () => {
    const button = renderButton({
      visibility: 'people',
      allowed_emails: ['ada@example.com'],
      visibility_choices: ['public', 'people'],
    })
    expect(button?.title).toBe('Who can open it')
    expect(document.querySelector('[role="dialog"]')).toBeNull()
    click(button)
    const dialog = document.querySelector('[role="dialog"]')
    expect(dialog?.textContent).toContain('Who can open it')
    expect(dialog?.textContent).toContain('ada@example.com')
  })
})
