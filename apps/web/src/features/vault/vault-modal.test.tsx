import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, until } from '../../testing/render.tsx'
import { VaultModal } from './vault-modal.tsx'

type Answer = { status: number; body?: unknown }

/** A vault behind a stubbed fetch: keys in memory, and a queue of forced answers. */
function fakeVault(initial: string[] = []) {
  const keys = new Set(initial)
  const forced: Answer[] = []
  let release: (() => void) | undefined
  const calls: { method: string; url: string; body?: unknown }[] = []
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET'
    const body = init.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ method, url, body })
    if (release) await new Promise<void>((resolve) => (release = resolve))
    const answer = forced.shift() ?? handle(method, url, body)
    return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    })
  })
  const handle = (method: string, url: string, body: { key: string }): Answer => {
    if (method === 'GET') {
      return {
        status: 200,
        body: [...keys].sort().map((key) => ({ key, updated_at: '2026-11-25T08:00:00Z' })),
      }
    }
    if (method === 'POST') {
      keys.add(body.key)
      return { status: 200, body: { key: body.key, updated_at: '2026-11-25T08:00:00Z' } }
    }
    keys.delete(decodeURIComponent(url.split('/').at(-1) ?? ''))
    return { status: 200, body: { success: true } }
  }
  return {
    keys,
    calls,
    force: (answer: Answer) => forced.push(answer),
    /** Holds the next requests until `resume`. */
    hold: () => {
      release = () => {}
    },
    resume: () => {
      const resolve = release
      release = undefined
      resolve?.()
    },
  }
}

const modal = () => document.querySelector<HTMLElement>('[role="dialog"]')
const text = () => modal()?.textContent ?? ''
const button = (name: string) => {
  const found = Array.from(modal()?.querySelectorAll('button') ?? []).find(
    (candidate) =>
      candidate.textContent?.trim() === name || candidate.getAttribute('aria-label') === name,
  )
  if (!found) throw new Error(`No button ${name} in: ${text()}`)
  return found
}
const input = (label: string) =>
  modal()?.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`) as HTMLInputElement

function type(field: HTMLInputElement, value: string) {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(field, value)
    field.dispatchEvent(new Event('input', { bubbles: true }))
  })
}
const click = (element: HTMLElement) => act(() => element.click())

function renderModal(onClose = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <VaultModal applicationId="app-1" open onClose={onClose} />
    </QueryClientProvider>,
  )
  return onClose
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('VaultModal', () => {
  it('lists keys with masked values, or says the vault is empty', async () => {
    fakeVault(['OPENAI_API_KEY', 'STRIPE_KEY'])
    renderModal()
    await until(() => text().includes('STRIPE_KEY'))
    expect(text()).toContain('Key')
    expect(text()).toContain('Value')
    expect(modal()?.querySelectorAll('[aria-label="Hidden value"]')).toHaveLength(2)
    cleanup()
    fakeVault([])
    renderModal()
    await until(() => text().includes('No secrets found in vault'))
  })

  it("adds a secret: Set needs both fields, reads 'Setting...', and the value is never shown", async () => {
    const vault = fakeVault()
    renderModal()
    await until(() => text().includes('No secrets found in vault'))
    click(button('Add Secret'))
    expect((button('Set') as HTMLButtonElement).disabled).toBe(true)
    type(input('Secret key'), 'WEATHER_API_KEY')
    expect((button('Set') as HTMLButtonElement).disabled).toBe(true)
    type(input('Secret value'), 'wx-secret-123')
    expect(input('Secret value').type).toBe('password')
    click(button('Show'))
    expect(input('Secret value').type).toBe('text')
    vault.hold()
    click(button('Set'))
    await until(() => text().includes('Setting...'))
    expect(input('Secret value').disabled).toBe(true)
    vault.resume()
    await until(() => text().includes('WEATHER_API_KEY') && !text().includes('Setting...'))
    expect(vault.calls.find((call) => call.method === 'POST')?.body).toEqual({
      key: 'WEATHER_API_KEY',
      value: 'wx-secret-123',
    })
    expect(document.body.innerHTML).not.toContain('wx-secret-123')
    expect(modal()?.querySelector('form[aria-label="Add Secret"]')).toBeNull()
  })

  it("shows why a key is refused, and the server's text for a failed save", async () => {
    const vault = fakeVault()
    renderModal()
    await until(() => text().includes('No secrets found in vault'))
    click(button('Add Secret'))
    type(input('Secret key'), 'VITE_MAPS_KEY')
    type(input('Secret value'), 'v')
    click(button('Set'))
    await until(() => text().includes('compiled into the app'))
    expect(vault.calls.some((call) => call.method === 'POST')).toBe(false)
    type(input('Secret key'), 'MAPS_KEY')
    vault.force({ status: 400, body: { error: 'Value is larger than 64 KB' } })
    click(button('Set'))
    await until(() => text().includes('Value is larger than 64 KB'))
    vault.force({ status: 500 })
    click(button('Set'))
    await until(() => text().includes('Failed to add secret'))
    click(button('Cancel'))
    expect(modal()?.querySelector('form[aria-label="Add Secret"]')).toBeNull()
  })

  it('deletes after a confirmation naming the key in quotes', async () => {
    const vault = fakeVault(['OLD_TOKEN'])
    renderModal()
    await until(() => text().includes('OLD_TOKEN'))
    click(button('Delete secret OLD_TOKEN'))
    expect(text()).toContain('Are you sure you want to delete the secret "OLD_TOKEN"?')
    vault.force({ status: 500 })
    click(button('Delete'))
    await until(() => text().includes('Failed to delete secret'))
    click(button('Delete'))
    await until(() => text().includes('No secrets found in vault'))
    expect(vault.keys.size).toBe(0)
  })

  it("explains a load failure and tries again; 'Close' closes", async () => {
    const vault = fakeVault(['BACK_AGAIN'])
    vault.force({ status: 500 })
    const onClose = renderModal()
    await until(() => text().includes('Failed to fetch vault keys'))
    click(button('Try again'))
    await until(() => text().includes('BACK_AGAIN'))
    click(button('Close'))
    expect(onClose).toHaveBeenCalled()
  })
})
