import { EDITOR_READY_MAX_POLLS } from '@sprout/protocol/constants.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render } from '../../testing/render.tsx'
import { CreateApplicationDialog } from './create-application-dialog.tsx'
import { CREATE_FAILED_ALERT, EDITOR_TIMEOUT_ALERT } from './create-application-flow.ts'

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

let created: number
let answerCreate: () => Response
let alerts: string[]

beforeEach(() => {
  vi.useFakeTimers()
  created = 0
  alerts = []
  answerCreate = () => {
    created += 1
    return json({ id: `app-${created}` }, 201)
  }
  vi.stubGlobal('alert', (message: string) => alerts.push(message))
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const { pathname } = new URL(input, 'http://localhost')
    if (init.method === 'POST' && pathname === '/api/applications') return answerCreate()
    // The editor never becomes ready.
    if (pathname.endsWith('/editor-ready')) return json({ ready: false })
    return json({ error: 'Not found' }, 404)
  })
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

function renderDialog() {
  const handlers = { onClose: vi.fn(), onCreated: vi.fn() }
  render(
    <QueryClientProvider client={new QueryClient()}>
      <CreateApplicationDialog open model="demo" modelSelector={null} {...handlers} />
    </QueryClientProvider>,
  )
  return handlers
}

async function describeAndCreate(text: string) {
  const textarea = document.querySelector('textarea') as HTMLTextAreaElement
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set?.call(
      textarea,
      text,
    )
    textarea.dispatchEvent(new Event('input', { bubbles: true }))
  })
  const form = document.querySelector('form') as HTMLFormElement
  await act(async () => {
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }))
  })
}

/** Lets every poll of the editor-ready wait run out. */
async function waitOutEditor() {
  for (let poll = 0; poll <= EDITOR_READY_MAX_POLLS && alerts.length === 0; poll++) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000)
    })
  }
}

describe('the create dialog', () => {
  it('closes after the editor timeout alert: the application is listed, not made twice', async () => {
    const handlers = renderDialog()
    await describeAndCreate('A budget planner')
    await waitOutEditor()
    expect(alerts).toEqual([EDITOR_TIMEOUT_ALERT])
    expect(handlers.onClose).toHaveBeenCalledOnce()
    expect(handlers.onCreated).not.toHaveBeenCalled()
    expect(created).toBe(1)
  })

  it('stays open with the text when the application could not be made', async () => {
    answerCreate = () => json({ error: 'An error occurred' }, 500)
    const handlers = renderDialog()
    await describeAndCreate('A budget planner')
    await waitOutEditor()
    expect(alerts).toEqual([CREATE_FAILED_ALERT])
    expect(handlers.onClose).not.toHaveBeenCalled()
    expect(document.querySelector('textarea')?.value).toBe('A budget planner')
  })
})
