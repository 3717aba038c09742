import type { Model } from '@sprout/protocol/models.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { buttonWithText, cleanup, render } from '../../testing/render.tsx'
import { testModel } from '../../testing/test-model.ts'
import { type LatestSend, useSecretRequestRenderer } from './use-secret-request-renderer.tsx'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const model = (id: string, available: boolean) => testModel(id, { available })

function Widget({ latest }: { latest: LatestSend }) {
  return useSecretRequestRenderer('app-1', latest)('STRIPE_KEY')
}

/** Saves a secret through the widget and answers what the confirmation was sent with. */
async function saveSecretWith(models: Model[]) {
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const body = url === '/api/models' ? models : init?.method === 'POST' ? {} : []
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })
  })
  const send = vi.fn()
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  await client.prefetchQuery({
    queryKey: ['models'],
    queryFn: async () => (await fetch('/api/models')).json(),
  })
  const container = render(
    <QueryClientProvider client={client}>
      <Widget latest={{ current: { send, model: 'gpt-5' } }} />
    </QueryClientProvider>,
  )
  const input = container.querySelector('input[placeholder="Value"]') as HTMLInputElement
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, 'sk_1')
    input.dispatchEvent(new Event('input', { bubbles: true }))
  })
  act(() => buttonWithText(container, 'Set').click())
  await vi.waitFor(() => expect(send).toHaveBeenCalled())
  return send.mock.calls
}

describe('a saved secret is confirmed to the agent (docs/product/builder.md)', () => {
  it('once, with claude-haiku-4-5 when it can run', async () => {
    const calls = await saveSecretWith([model('claude-haiku-4-5', true), model('gpt-5', true)])
    expect(calls).toEqual([
      [`I've set the secret "STRIPE_KEY". Please continue.`, 'claude-haiku-4-5'],
    ])
  })

  it("once, with the conversation's model when claude-haiku-4-5 cannot run", async () => {
    const calls = await saveSecretWith([model('claude-haiku-4-5', false), model('gpt-5', true)])
    expect(calls).toEqual([[`I've set the secret "STRIPE_KEY". Please continue.`, 'gpt-5']])
  })
})
