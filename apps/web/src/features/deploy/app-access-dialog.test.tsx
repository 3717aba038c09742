import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, until } from '../../testing/render.tsx'
import { updateApplicationAccess } from '../applications/application-api.ts'
import { NOT_AN_EMAIL } from './allowed-email.ts'
import { type AppAccess, AppAccessDialog } from './app-access-dialog.tsx'

type Answer = { status: number; body: unknown }

/** The PATCH endpoint behind a stubbed fetch: it echoes what it was sent, or a forced answer. */
function fakeServer() {
  const calls: { method: string; url: string; body: unknown }[] = []
  const forced: Answer[] = []
  let held: Promise<void> | undefined
  let release = () => {}
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const body: unknown = JSON.parse(String(init.body))
    calls.push({ method: init.method ?? 'GET', url, body })
    await held
    const answer = forced.shift() ?? { status: 200, body }
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    })
  })
  return {
    calls,
    force: (answer: Answer) => forced.push(answer),
    hold: () => {
      held = new Promise((resolve) => {
        release = resolve
      })
    },
    resume: () => {
      held = undefined
      release()
    },
  }
}

const allChoices: AppAccess['visibility_choices'] = ['public', 'organization', 'people']

function renderDialog(access: Partial<AppAccess> = {}) {
  const onClose = vi.fn()
  render(
    <AppAccessDialog
      open
      access={{
        visibility: 'organization',
        allowed_emails: [],
        visibility_choices: allChoices,
        ...access,
      }}
      organizationName="Acme"
      onSave={(request) => updateApplicationAccess('app-1', request)}
      onClose={onClose}
    />,
  )
  return onClose
}

const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]')
const text = () => dialog()?.textContent ?? ''
const radios = () => Array.from(dialog()?.querySelectorAll<HTMLInputElement>('[type=radio]') ?? [])
/** A radio's accessible name: the text its aria-labelledby points at. */
const radioName = (radio: HTMLInputElement) =>
  document.getElementById(radio.getAttribute('aria-labelledby') ?? '')?.textContent
const radio = (name: string) => {
  const found = radios().find((candidate) => radioName(candidate) === name)
  if (!found) throw new Error(`No choice ${name} in: ${text()}`)
  return found
}
const button = (name: string) => {
  const found = Array.from(dialog()?.querySelectorAll('button') ?? []).find(
    (candidate) =>
      candidate.textContent?.trim() === name || candidate.getAttribute('aria-label') === name,
  )
  if (!found) throw new Error(`No button ${name} in: ${text()}`)
  return found
}
const emailInput = () => {
  const label = Array.from(dialog()?.querySelectorAll('label') ?? []).find(
    (candidate) => candidate.textContent === 'Email address',
  )
  return document.getElementById(label?.htmlFor ?? '') as HTMLInputElement
}
const chips = () =>
  Array.from(dialog()?.querySelectorAll('ul[aria-label="Allowed email addresses"] li') ?? []).map(
    (chip) => chip.textContent,
  )
const alerts = () =>
  Array.from(dialog()?.querySelectorAll('[role="alert"]') ?? []).map((alert) => alert.textContent)

const click = (element: HTMLElement) => act(() => element.click())
function type(field: HTMLInputElement, value: string) {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(field, value)
    field.dispatchEvent(new Event('input', { bubbles: true }))
  })
}
const press = (target: EventTarget, key: string) =>
  act(() => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }))
  })
function addEmail(value: string) {
  type(emailInput(), value)
  press(emailInput(), 'Enter')
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('AppAccessDialog', () => {
  it('offers only the choices the user may set, in a labelled group, the current one focused', () => {
    renderDialog({ visibility: 'public', visibility_choices: ['public', 'people'] })
    expect(dialog()?.getAttribute('aria-labelledby')).toBeTruthy()
    expect(text()).toContain('Who can open it')
    expect(dialog()?.querySelector('fieldset legend')?.textContent).toBe('Who can open it')
    expect(radios().map(radioName)).toEqual(['Anyone with the link', 'Only people I list'])
    expect(text()).toContain('Anyone on the internet can open the deployed app.')
    expect(document.activeElement).toBe(radio('Anyone with the link'))
    expect(radio('Anyone with the link').checked).toBe(true)
    cleanup()

    renderDialog()
    expect(radios().map(radioName)).toEqual([
      'Anyone with the link',
      'Members of Acme',
      'Only people I list',
    ])
    expect(text()).toContain('Only members of this organization, signed in to Sprout.')
    expect(document.activeElement).toBe(radio('Members of Acme'))
  })

  it('needs at least one address for people', () => {
    renderDialog()
    expect(emailInput()).toBeNull()
    click(radio('Only people I list'))
    expect(text()).toContain('Only these email addresses, signed in to Sprout.')
    expect(text()).toContain('Add at least one address.')
    expect(button('Save').disabled).toBe(true)
    addEmail('ada@example.com')
    expect(button('Save').disabled).toBe(false)
    click(button('Remove ada@example.com'))
    expect(chips()).toEqual([])
    expect(button('Save').disabled).toBe(true)
  })

  it('adds an address with Enter or Add, lower-cased, once; an invalid one is explained', () => {
    renderDialog({ visibility: 'people', allowed_emails: ['grace@example.com'] })
    expect(chips()).toEqual(['grace@example.com'])
    addEmail('  Ada@Example.COM ')
    expect(chips()).toEqual(['grace@example.com', 'ada@example.com'])
    expect(emailInput().value).toBe('')
    addEmail('ADA@example.com')
    expect(chips()).toEqual(['grace@example.com', 'ada@example.com'])
    addEmail('not an email')
    expect(alerts()).toEqual([NOT_AN_EMAIL])
    expect(emailInput().getAttribute('aria-invalid')).toBe('true')
    expect(chips()).toHaveLength(2)
    type(emailInput(), 'alan@example.org')
    expect(alerts()).toEqual([])
    click(button('Add'))
    expect(chips()).toEqual(['grace@example.com', 'ada@example.com', 'alan@example.org'])
    expect(dialog()).not.toBeNull()
  })

  it("saves the choice and its list with PATCH, reads 'Saving...', then closes", async () => {
    const server = fakeServer()
    const onClose = renderDialog()
    click(radio('Only people I list'))
    addEmail('ada@example.com')
    addEmail('grace@example.com')
    server.hold()
    click(button('Save'))
    await until(() => server.calls.length === 1)
    expect(button('Saving...').disabled).toBe(true)
    expect(button('Cancel').disabled).toBe(true)
    press(document, 'Escape')
    expect(onClose).not.toHaveBeenCalled()
    server.resume()
    await until(() => onClose.mock.calls.length === 1)
    expect(server.calls).toEqual([
      {
        method: 'PATCH',
        url: '/api/applications/app-1',
        body: { visibility: 'people', allowed_emails: ['ada@example.com', 'grace@example.com'] },
      },
    ])
  })

  it("shows the server's refusal and keeps the choices", async () => {
    const server = fakeServer()
    server.force({
      status: 400,
      body: { error: 'allowed_emails.0: must be an email address such as ada@example.com' },
    })
    const onClose = renderDialog({ visibility: 'public' })
    click(radio('Only people I list'))
    addEmail('ada@example.com')
    click(button('Save'))
    await until(() => alerts().length > 0)
    expect(alerts()).toEqual(['allowed_emails.0: must be an email address such as ada@example.com'])
    expect(onClose).not.toHaveBeenCalled()
    expect(radio('Only people I list').checked).toBe(true)
    expect(chips()).toEqual(['ada@example.com'])
    expect(button('Save').disabled).toBe(false)
  })

  it('closes without saving on Escape or Cancel', () => {
    const server = fakeServer()
    const onClose = renderDialog()
    click(radio('Anyone with the link'))
    press(document, 'Escape')
    click(button('Cancel'))
    expect(onClose).toHaveBeenCalledTimes(2)
    expect(server.calls).toEqual([])
  })
})
