import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { buttonWithText, cleanup, render } from '../../testing/render.tsx'
import { SecretRequestWidget } from './secret-request-widget.tsx'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function type(input: HTMLInputElement, value: string) {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value)
    input.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

const valueInput = (container: HTMLElement) =>
  container.querySelector('input[placeholder="Value"]') as HTMLInputElement

async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 10))
  })
}

describe('SecretRequestWidget', () => {
  it('shows the key read-only, masks the value, and explains an empty value', () => {
    const container = render(
      <SecretRequestWidget applicationId="app-1" secretKey="STRIPE_KEY" onSaved={() => {}} />,
    )
    const key = container.querySelector('input[aria-label="Key"]') as HTMLInputElement
    expect(key.value).toBe('STRIPE_KEY')
    expect(key.readOnly).toBe(true)
    const input = valueInput(container)
    expect(input.type).toBe('password')
    expect(buttonWithText(container, 'Set').disabled).toBe(true)
    act(() => {
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
    })
    expect(container.textContent).toContain('Value is required')
    act(() => buttonWithText(container, 'Show').click())
    expect(valueInput(container).type).toBe('text')
  })

  it('stores the value, collapses to Saved and reports the key; never shows the value again', async () => {
    const requests: { url: string; body: unknown }[] = []
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      requests.push({ url, body: JSON.parse(String(init.body)) })
      return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } })
    })
    const onSaved = vi.fn()
    const container = render(
      <SecretRequestWidget applicationId="app-1" secretKey="STRIPE_KEY" onSaved={onSaved} />,
    )
    type(valueInput(container), 'sk_live_123')
    act(() => buttonWithText(container, 'Set').click())
    await settle()
    expect(requests).toEqual([
      { url: '/api/applications/app-1/vault', body: { key: 'STRIPE_KEY', value: 'sk_live_123' } },
    ])
    expect(onSaved).toHaveBeenCalledWith('STRIPE_KEY')
    const saved = container.querySelector('[data-testid="secret-saved"]')
    expect(saved?.textContent).toContain('STRIPE_KEY')
    expect(saved?.textContent).toContain('Saved')
    expect(container.textContent).not.toContain('sk_live_123')
  })

  it("shows the server's error under the input and stays editable", async () => {
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(JSON.stringify({ error: 'Vault is locked' }), {
          status: 500,
          headers: { 'Content-Type': 'application/json' },
        }),
    )
    const container = render(
      <SecretRequestWidget applicationId="app-1" secretKey="STRIPE_KEY" onSaved={() => {}} />,
    )
    type(valueInput(container), 'sk_live_123')
    act(() => buttonWithText(container, 'Set').click())
    await settle()
    expect(container.textContent).toContain('Vault is locked')
    expect(valueInput(container).disabled).toBe(false)
    expect(valueInput(container).value).toBe('sk_live_123')
  })
  it("falls back to 'Failed to store secret' when the server gives no text", async () => {
    vi.stubGlobal('fetch', async () => new Response('', { status: 502 }))
    const container = render(
      <SecretRequestWidget applicationId="app-1" secretKey="STRIPE_KEY" onSaved={() => {}} />,
    )
    type(valueInput(container), 'sk_live_123')
    act(() => buttonWithText(container, 'Set').click())
    await settle()
    expect(container.textContent).toContain('Failed to store secret')
  })

  it("reads 'Saving...' with the input and buttons disabled while the value is stored", async () => {
    let answer: (response: Response) => void = () => {}
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answer = resolve)))
    const container = render(
      <SecretRequestWidget applicationId="app-1" secretKey="STRIPE_KEY" onSaved={() => {}} />,
    )
    type(valueInput(container), 'sk_live_123')
    act(() => {
      valueInput(container).dispatchEvent(
        new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }),
      )
    })
    expect(buttonWithText(container, 'Saving...').disabled).toBe(true)
    expect(buttonWithText(container, 'Show').disabled).toBe(true)
    expect(valueInput(container).disabled).toBe(true)
    answer(new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } }))
    await settle()
    expect(container.querySelector('[data-testid="secret-saved"]')).not.toBeNull()
  })

  it('shows a key the vault already holds as saved (after a reload)', () => {
    const container = render(
      <SecretRequestWidget
        applicationId="app-1"
        secretKey="STRIPE_KEY"
        alreadySaved
        onSaved={() => {}}
      />,
    )
    expect(container.querySelector('[data-testid="secret-saved"]')?.textContent).toContain('Saved')
    expect(valueInput(container)).toBeNull()
  })
})
