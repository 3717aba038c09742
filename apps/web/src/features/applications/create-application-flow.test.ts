import { describe, expect, it, vi } from 'vitest'
import type { EditorReadiness } from './application-api.ts'
import {
  CreateApplicationError,
  type CreateApplicationSteps,
  runCreateApplication,
} from './create-application-flow.ts'

const input = { name: '  ', description: '  A todo list  ', model: 'demo' }

function steps(readiness: EditorReadiness[], overrides: Partial<CreateApplicationSteps> = {}) {
  const checks = [...readiness]
  return {
    create: vi.fn(async () => 'app-1'),
    checkEditorReady: vi.fn(async () => checks.shift() ?? { ready: false }),
    sendInitialMessage: vi.fn(async () => {}),
    wait: { intervalMs: 0 },
    ...overrides,
  } satisfies CreateApplicationSteps
}

describe('runCreateApplication (docs/product/applications.md)', () => {
  it('creates, waits for the editor, sends the first message, with progress along the way', async () => {
    const flow = steps([{ ready: false }, { ready: false }, { ready: true }])
    const progress: string[] = []
    const id = await runCreateApplication(input, flow, {
      onProgress: (step) => progress.push(step),
    })
    expect(id).toBe('app-1')
    expect(flow.create).toHaveBeenCalledWith({
      name: undefined,
      initial_prompt: 'A todo list',
      model: 'demo',
    })
    expect(flow.checkEditorReady).toHaveBeenCalledTimes(3)
    expect(flow.sendInitialMessage).toHaveBeenCalledWith({
      applicationId: 'app-1',
      message: 'A todo list',
      model: 'demo',
    })
    expect(progress).toEqual([
      'Creating application...',
      'Starting the editor...',
      'Sending your first message...',
      'Opening the editor...',
    ])
  })

  it("gives up after 60 polls with 'Editor service took too long to become ready'", async () => {
    const flow = steps([])
    const error = await runCreateApplication(input, flow).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(CreateApplicationError)
    expect((error as CreateApplicationError).alertMessage).toBe(
      'Editor service took too long to become ready',
    )
    expect((error as CreateApplicationError).applicationId).toBe('app-1')
    expect(flow.checkEditorReady).toHaveBeenCalledTimes(60)
    expect(flow.sendInitialMessage).not.toHaveBeenCalled()
  })

  // Issue 29: fifty new apps at once; the 50th waited past 60 polls and got the timeout alert.
  it('keeps waiting while the box waits its turn to start, saying how many are ahead', async () => {
    const queued = Array.from({ length: 70 }, (_, index) => ({
      ready: false,
      queue_position: 69 - index,
    }))
    const flow = steps([...queued, { ready: false }, { ready: true }])
    const progress: string[] = []
    const id = await runCreateApplication(input, flow, {
      onProgress: (step) => progress.push(step),
    })
    expect(id).toBe('app-1')
    expect(flow.checkEditorReady).toHaveBeenCalledTimes(72)
    expect(progress).toContain('Waiting for a dev box: 7 ahead of you...')
    expect(progress).toContain('Waiting for a dev box: you are next...')
    expect(progress.at(-1)).toBe('Opening the editor...')
  })

  it('stops polling at once when the dev box failed', async () => {
    const flow = steps([
      { ready: false },
      { ready: false, error: 'The dev box could not be started.' },
    ])
    const error = await runCreateApplication(input, flow).catch((caught: unknown) => caught)
    expect((error as CreateApplicationError).alertMessage).toBe(
      'Failed to create application. Please try again.',
    )
    expect(flow.checkEditorReady).toHaveBeenCalledTimes(2)
  })

  it("shows 'Failed to create application. Please try again.' when any other step fails", async () => {
    const rejected = steps([], { create: vi.fn(async () => Promise.reject(new Error('400'))) })
    await expect(runCreateApplication(input, rejected)).rejects.toMatchObject({
      alertMessage: 'Failed to create application. Please try again.',
      applicationId: undefined,
    })
    const unsent = steps([{ ready: true }], {
      sendInitialMessage: vi.fn(async () => Promise.reject(new Error('chat down'))),
    })
    await expect(runCreateApplication(input, unsent)).rejects.toMatchObject({
      alertMessage: 'Failed to create application. Please try again.',
      applicationId: 'app-1',
    })
  })

  it('waits one second between polls', async () => {
    vi.useFakeTimers()
    try {
      const flow = steps([{ ready: false }, { ready: true }], { wait: undefined })
      const created = runCreateApplication(input, flow)
      await vi.advanceTimersByTimeAsync(999)
      expect(flow.checkEditorReady).toHaveBeenCalledTimes(1)
      await vi.advanceTimersByTimeAsync(1)
      await expect(created).resolves.toBe('app-1')
      expect(flow.checkEditorReady).toHaveBeenCalledTimes(2)
    } finally {
      vi.useRealTimers()
    }
  })
})
