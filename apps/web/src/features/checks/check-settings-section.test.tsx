import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeChecks } from '../../testing/fake-checks.ts'
import { cleanup, click, pageText, until } from '../../testing/render.tsx'
import { renderScreen } from '../../testing/render-screen.tsx'
import { CHECK_SETTING_TEXTS, CheckSettingsSection } from './check-settings-section.tsx'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const theSwitch = () => document.querySelector<HTMLButtonElement>('[role="switch"]')

describe('the automatic repair setting', () => {
  it('is on by default, and an owner turns it off', async () => {
    const fake = fakeChecks()
    renderScreen(<CheckSettingsSection organizationId="org-1" canEdit />)
    await until(() => theSwitch() !== null)
    const control = theSwitch() as HTMLButtonElement
    const label = document.getElementById(control.getAttribute('aria-labelledby') as string)
    expect(label?.textContent).toBe(CHECK_SETTING_TEXTS.label)
    expect(pageText()).toContain(CHECK_SETTING_TEXTS.explanation)
    expect(control.getAttribute('aria-checked')).toBe('true')
    expect(control.disabled).toBe(false)
    click(control)
    await until(() => theSwitch()?.getAttribute('aria-checked') === 'false')
    expect(fake.calls.at(-1)).toMatchObject({
      method: 'PUT',
      path: '/api/organizations/org-1/check-settings',
      body: { autoRepair: false },
    })
  })

  it('is read-only for a member', async () => {
    const fake = fakeChecks()
    renderScreen(<CheckSettingsSection organizationId="org-1" canEdit={false} />)
    await until(() => theSwitch() !== null)
    expect(theSwitch()?.disabled).toBe(true)
    expect(pageText()).toContain(CHECK_SETTING_TEXTS.readOnly)
    click(theSwitch())
    expect(fake.calls.every((call) => call.method === 'GET')).toBe(true)
  })

  it('is off and disabled when the installation turned repairs off', async () => {
    fakeChecks({ settings: { autoRepair: true, installationAllows: false } })
    renderScreen(<CheckSettingsSection organizationId="org-1" canEdit />)
    await until(() => theSwitch() !== null)
    expect(theSwitch()?.getAttribute('aria-checked')).toBe('false')
    expect(theSwitch()?.disabled).toBe(true)
    expect(pageText()).toContain('Turned off for this installation (AUTO_REPAIR=off)')
  })
})
