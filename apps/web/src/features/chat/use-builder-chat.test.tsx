import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeEventSource } from '../../testing/fake-event-source.ts'
import { cleanup, render } from '../../testing/render.tsx'
import { type BuilderChat, useBuilderChat } from './use-builder-chat.ts'

type Call = { method: string; path: string; body: unknown }

/** The server's answers by method and path; a function may hold the answer back. */
type Answer = (call: Call) => Response | Promise<Response>
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

let calls: Call[] = []
let answers: Record<string, Answer> = {}

function installServer() {
  calls = []
  answers = {
    'GET /api/auth/token': () => json({ token: 'jwt' }),
    'POST /api/demo/applications/app-1/interrupt': () => json({ interrupted: true }),
    'DELETE /api/demo/applications/app-1/stage-message': () => json({ status: 'unsent' }),
  }
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost')
    const method = init.method ?? 'GET'
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined
    const call = { method, path: url.pathname, body }
    calls.push(call)
    const answer = answers[`${method} ${url.pathname}`]
    return answer ? answer(call) : json({ error: 'Not found' }, 404)
  })
  vi.stubGlobal('EventSource', FakeEventSource)
}

let chat: BuilderChat
function Harness() {
  chat = useBuilderChat({ applicationId: 'app-1' })
  return null
}

/** Lets promises settle and an animation frame pass. */
async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 40))
  })
}

let seq = 0
async function emit(...chunks: StreamEnvelope['chunk'][]) {
  const source = FakeEventSource.instances.at(-1)
  if (!source) throw new Error('Not listening')
  act(() => {
    for (const chunk of chunks) source.emit({ seq: ++seq, runId: 'run-1', chunk })
  })
  await settle()
}

async function openRunningConversation() {
  render(<Harness />)
  act(() => chat.select('conv-1'))
  await settle()
  await emit({ type: 'data-run', data: { runId: 'run-1', status: 'running' } }, { type: 'start' })
  expect(chat.state.isRunning).toBe(true)
}

const callsTo = (method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path)

describe('useBuilderChat', () => {
  beforeEach(() => {
    seq = 0
    FakeEventSource.instances = []
    installServer()
  })
  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  it('listens to the selected conversation with a fresh token', async () => {
    render(<Harness />)
    act(() => chat.select('conv-1'))
    await settle()
    const url = new URL(FakeEventSource.instances.at(-1)?.url ?? '', 'http://localhost')
    expect(url.pathname).toBe('/api/demo/applications/app-1/listen')
    expect(url.searchParams.get('conversation_id')).toBe('conv-1')
    expect(url.searchParams.get('token')).toBe('jwt')
  })

  it('stages a message while the agent runs and dequeues it once sent', async () => {
    let answerStage: (response: Response) => void = () => {}
    answers['POST /api/demo/applications/app-1/stage-message'] = () =>
      new Promise((resolve) => {
        answerStage = resolve
      })
    await openRunningConversation()
    act(() => chat.send('Also add a footer', 'demo'))
    await settle()
    const [staged] = callsTo('POST', '/api/demo/applications/app-1/stage-message')
    const body = staged?.body as { message: string; conversation_id: string; client_id: string }
    expect(body).toBeDefined()
    expect(body.message).toBe('Also add a footer')
    expect(body.conversation_id).toBe('conv-1')
    expect(chat.stagedMessages).toEqual([{ id: body.client_id, text: 'Also add a footer' }])
    expect(chat.draft).toBe('')
    expect(callsTo('POST', '/api/demo/applications/app-1/message')).toHaveLength(0)

    await emit(
      {
        type: 'data-staged',
        data: { id: body.client_id, status: 'sent', text: 'Also add a footer' },
      },
      {
        type: 'data-user-message',
        data: { id: 'm2', text: 'Also add a footer', clientId: body.client_id },
      },
    )
    act(() => answerStage(json({ status: 'sent' })))
    await settle()
    expect(chat.stagedMessages).toEqual([])
    expect(chat.state.blocks.map((block) => block.content)).toEqual(['Also add a footer'])
    expect(chat.draft).toBe('')
  })

  it("returns a message the run left 'unsent' to the input", async () => {
    answers['POST /api/demo/applications/app-1/stage-message'] = () => json({ status: 'unsent' })
    await openRunningConversation()
    act(() => chat.setDraft(''))
    act(() => chat.send('Make it blue', 'demo'))
    await settle()
    expect(chat.draft).toBe('Make it blue')
    expect(chat.stagedMessages).toEqual([])
    expect(chat.draftNote).toBe('Not sent — the agent finished first. Press Enter to send it.')
    // Sending it again clears the note.
    act(() => chat.send('Make it blue', 'demo'))
    expect(chat.draftNote).toBeNull()
  })

  it('returns the message to the input when the stage request fails', async () => {
    answers['POST /api/demo/applications/app-1/stage-message'] = () =>
      json({ error: 'Server error' }, 500)
    await openRunningConversation()
    act(() => chat.send('Make it blue', 'demo'))
    await settle()
    expect(chat.draft).toBe('Make it blue')
    expect(chat.stagedMessages).toEqual([])
  })

  it('Escape takes queued messages back into the input and cancels them, without interrupting', async () => {
    answers['POST /api/demo/applications/app-1/stage-message'] = () => new Promise(() => {})
    await openRunningConversation()
    act(() => chat.send('First', 'demo'))
    act(() => chat.send('Second', 'demo'))
    await settle()
    expect(chat.stagedMessages.map((message) => message.text)).toEqual(['First', 'Second'])
    act(() => chat.setDraft('typed since'))
    act(() => chat.pressEscape())
    await settle()
    expect(chat.draft).toBe('First\n\nSecond\n\ntyped since')
    expect(chat.stagedMessages).toEqual([])
    expect(callsTo('DELETE', '/api/demo/applications/app-1/stage-message')).toHaveLength(2)
    expect(callsTo('POST', '/api/demo/applications/app-1/interrupt')).toHaveLength(0)
    expect(chat.state.isRunning).toBe(true)
  })

  it('Escape with nothing queued interrupts the run, once per 500 ms', async () => {
    await openRunningConversation()
    act(() => chat.pressEscape())
    act(() => chat.pressEscape())
    await settle()
    expect(chat.state.isInterrupting).toBe(true)
    const interrupts = callsTo('POST', '/api/demo/applications/app-1/interrupt')
    expect(interrupts).toHaveLength(1)
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 520))
    })
    act(() => chat.pressEscape())
    await settle()
    expect(callsTo('POST', '/api/demo/applications/app-1/interrupt')).toHaveLength(2)
    await emit(
      { type: 'abort' },
      { type: 'data-error', data: { error: 'Interrupted', errorType: 'interrupt' } },
    )
    expect(chat.state.isRunning).toBe(false)
    expect(chat.state.blocks.at(-1)?.errorType).toBe('interrupt')
  })

  it('a first message creates the conversation and switches to it, showing the message once', async () => {
    answers['POST /api/demo/applications/app-1/message'] = () => {
      const now = new Date().toISOString()
      return json({
        id: 'conv-new',
        conversation_id: 'conv-new',
        run_id: 'run-1',
        title: 'Build a todo app',
        created: now,
        updated: now,
        last_message_at: now,
        active_model: 'demo',
      })
    }
    render(<Harness />)
    act(() => chat.select(null))
    act(() => chat.send('Build a todo app', 'demo'))
    expect(chat.state.blocks.map((block) => block.content)).toEqual(['Build a todo app'])
    await settle()
    expect(chat.conversationId).toBe('conv-new')
    const source = FakeEventSource.instances.at(-1)
    expect(source?.url).toContain('conversation_id=conv-new')
    expect(source?.url).not.toContain('last_event_id')
    const [sent] = callsTo('POST', '/api/demo/applications/app-1/message')
    const clientId = (sent?.body as { client_id?: string } | undefined)?.client_id
    await emit({
      type: 'data-user-message',
      data: { id: 'm1', text: 'Build a todo app', clientId },
    })
    expect(chat.state.blocks.map((block) => block.content)).toEqual(['Build a todo app'])
  })

  it('a message that cannot be sent goes back to the input with the reason', async () => {
    answers['POST /api/demo/applications/app-1/message'] = () =>
      json({ error: 'The dev box of this application is not ready yet.' }, 409)
    render(<Harness />)
    act(() => chat.select(null))
    act(() => chat.send('Build a todo app', 'demo'))
    await settle()
    expect(chat.state.blocks).toEqual([])
    expect(chat.draft).toBe('Build a todo app')
    expect(chat.notice).toBe('The dev box of this application is not ready yet.')
  })

  it('selecting another conversation clears the view and listens to it from the start', async () => {
    await openRunningConversation()
    const first = FakeEventSource.instances.at(-1)
    act(() => chat.select('conv-2'))
    await settle()
    expect(first?.closed).toBe(true)
    expect(chat.state.isRunning).toBe(false)
    expect(chat.state.lastSeq).toBeNull()
    const url = FakeEventSource.instances.at(-1)?.url ?? ''
    expect(url).toContain('conversation_id=conv-2')
    expect(url).not.toContain('last_event_id')
  })
})
