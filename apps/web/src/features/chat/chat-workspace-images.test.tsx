import type { Model } from '@sprout/protocol/models.ts'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeEventSource } from '../../testing/fake-event-source.ts'
import { chooseFiles, sampleImageFile, uploadAnswer } from '../../testing/image-files.ts'
import { cleanup, render, until } from '../../testing/render.tsx'
import { testModel } from '../../testing/test-model.ts'
import { ChatWorkspace } from './chat-workspace.tsx'

// docs/product/images.md "Sending": the builder's chat sends a message's images by their upload
// ids, shows them at once, and keeps the whole draft when the send fails.

type Call = { method: string; path: string; body: unknown }
type Answer = (call: Call) => Response | Promise<Response>
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

let calls: Call[] = []
let answers: Record<string, Answer> = {}
const now = new Date().toISOString()
const created = {
  id: 'conv-new',
  conversation_id: 'conv-new',
  run_id: 'run-1',
  title: 'Like this',
  created: now,
  updated: now,
  last_message_at: now,
  active_model: 'demo',
}

beforeEach(() => {
  calls = []
  FakeEventSource.instances = []
  answers = {
    'GET /api/demo/applications/app-1/conversations': () => json([]),
    'GET /api/auth/token': () => json({ token: 'jwt' }),
    'POST /api/demo/applications/app-1/message': () => json(created),
  }
  vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
    const url = new URL(path, 'http://localhost')
    const method = init.method ?? 'GET'
    if (method === 'POST' && url.pathname === '/api/images') {
      return json(await uploadAnswer(init.body as Blob), 201)
    }
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined
    const call = { method, path: url.pathname, body }
    calls.push(call)
    const answer = answers[`${method} ${url.pathname}`]
    return answer ? answer(call) : json({ error: 'Not found' }, 404)
  })
  vi.stubGlobal('EventSource', FakeEventSource)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const model = (id: string, name: string, images: boolean) =>
  testModel(id, { name, images, provider: 'anthropic' })

function renderWorkspace(initialModel = 'demo', models?: Model[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <QueryClientProvider client={client}>
      <ChatWorkspace applicationId="app-1" initialModel={initialModel} models={models} />
    </QueryClientProvider>,
  )
}

const textarea = () => document.querySelector('textarea') as HTMLTextAreaElement
const draftImages = () => [...document.querySelectorAll('[data-testid="draft-image"] img')]
const sentImages = () =>
  [...document.querySelectorAll('[data-testid="user-message"] img')].map((image) =>
    image.getAttribute('src'),
  )
const messageCalls = () => calls.filter((call) => call.path.endsWith('/message'))
const ready = () =>
  document.querySelectorAll('[data-testid="draft-image"][aria-busy="false"]').length

async function draftWithImage(text: string) {
  const container = renderWorkspace()
  await until(() => document.querySelector('textarea') !== null)
  chooseFiles(container, [sampleImageFile('png', 'sketch.png')])
  await until(() => ready() === 1)
  typeText(text)
}

function typeText(text: string) {
  act(() => {
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set
    setter?.call(textarea(), text)
    textarea().dispatchEvent(new Event('input', { bubbles: true }))
  })
}

function pressEnter() {
  act(() => {
    textarea().dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }),
    )
  })
}

describe("the builder chat's images", () => {
  it('sends the upload ids with the text and shows the images at once, once', async () => {
    await draftWithImage('Like this')
    pressEnter()
    expect(sentImages()).toHaveLength(1)
    expect(sentImages()[0]).toMatch(/^\/api\/images\/image-\d+$/)
    expect(draftImages()).toHaveLength(0)
    expect(textarea().value).toBe('')
    await until(() => messageCalls().length === 1)
    const body = messageCalls()[0]?.body as { message: string; images: string[]; client_id: string }
    expect(body.message).toBe('Like this')
    expect(body.images).toEqual([sentImages()[0]?.replace('/api/images/', '')])

    await until(() => FakeEventSource.instances.length > 0)
    const echo: StreamEnvelope = {
      seq: 1,
      runId: 'run-1',
      chunk: {
        type: 'data-user-message',
        data: {
          id: 'm1',
          text: 'Like this',
          clientId: body.client_id,
          images: [
            { id: body.images[0] ?? '', media_type: 'image/png', width: 7, height: 5, size: 90 },
          ],
        },
      },
    }
    act(() => FakeEventSource.instances.at(-1)?.emit(echo))
    await until(() => document.querySelectorAll('[data-testid="user-message"]').length === 1)
    expect(sentImages()).toHaveLength(1)
  })

  it('keeps the text and the images when the send fails', async () => {
    answers['POST /api/demo/applications/app-1/message'] = () =>
      json({ error: 'The dev box of this application is not ready yet.' }, 409)
    await draftWithImage('Like this')
    pressEnter()
    await until(() => textarea().value === 'Like this')
    expect(document.querySelectorAll('[data-testid="user-message"]')).toHaveLength(0)
    expect(draftImages().map((image) => image.getAttribute('alt'))).toEqual([
      'Attached image 1 of 1, PNG 7 × 5',
    ])
    expect(document.querySelector('[role="alert"]')?.textContent).toBe(
      'The dev box of this application is not ready yet.',
    )
    // Sent again, the images go with it.
    answers['POST /api/demo/applications/app-1/message'] = () => json(created)
    pressEnter()
    await until(() => messageCalls().length === 2)
    expect(messageCalls()[1]?.body).toMatchObject({ images: [expect.any(String)] })
  })

  it('does not send images to a model that cannot read them', async () => {
    const models = [
      model('grok-code-fast-1', 'Grok Code Fast', false),
      model('claude-haiku-4-5', 'Claude Haiku 4.5', true),
    ]
    const container = renderWorkspace('grok-code-fast-1', models)
    await until(() => document.querySelector('textarea') !== null)
    chooseFiles(container, [sampleImageFile('png')])
    await until(() => ready() === 1)
    typeText('Fix this')
    pressEnter()
    expect(document.querySelector('[role="alert"]')?.textContent).toBe(
      'Grok Code Fast cannot read images. Choose a model that can, such as Claude Haiku 4.5.',
    )
    expect(messageCalls()).toHaveLength(0)
    expect(draftImages()).toHaveLength(1)
  })
})
