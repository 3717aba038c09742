import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { evaluationStatus, fakeEvaluations } from '../../testing/fake-evaluations.ts'
import { cleanup, pageText, until } from '../../testing/render.tsx'
import { renderScreen } from '../../testing/render-screen.tsx'
import { EvaluationExecution } from './evaluation-execution.tsx'

beforeEach(() => {
  // The 2 s poll runs on setInterval; the test moves it on by hand.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.useRealTimers()
  setVisibility('visible')
})

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true })
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'))
  })
}

async function pollOnce(ms = 2_000) {
  await act(async () => {
    vi.advanceTimersByTime(ms)
  })
}

const field = (name: string) =>
  document.querySelector(`[data-testid="evaluation-${name}"]`)?.textContent
const item = (title: string) => document.querySelector(`li[aria-label="${title}"]`)

describe('EvaluationExecution', () => {
  it('starts a pending evaluation, shows each item as it runs, and stops polling when done', async () => {
    const fake = fakeEvaluations(
      [],
      evaluationStatus('eval-9', ['conversation-a', 'conversation-b'], null),
    )
    renderScreen(<EvaluationExecution evaluationId="eval-9" />)
    await until(() => pageText().includes('Untitled Conversation'))
    expect(document.querySelector('h2')?.textContent).toBe('Evaluation Execution')
    expect(field('id')).toBe('eval-9')
    expect(field('template')).toBe('Custom')
    // Asked for 5; the screen shows and forces 3.
    expect(field('concurrency')).toBe('3')
    await until(() => field('status') === 'in_progress')
    expect(fake.callsTo('/start', 'POST')).toHaveLength(1)
    expect(pageText()).toContain('0 / 2 complete')
    expect(item('Conversation 1')?.textContent).toContain('Acme Corp / counter')
    expect(pageText()).not.toContain('View Full Results')
    expect(document.querySelector('a[href="/admin/evals"]')?.textContent).toBe(
      'Back to Evaluations',
    )

    fake.advance()
    await pollOnce()
    await until(() => item('Untitled Conversation')?.getAttribute('data-status') === 'in_progress')
    // Elapsed seconds while running (started 4 s ago).
    const time = (title: string) =>
      item(title)?.querySelector('[data-testid="evaluation-item-time"]')?.textContent
    expect(time('Untitled Conversation')).toMatch(/^[4-9]s$/)
    expect(
      item('Untitled Conversation')?.querySelector('[role="img"]')?.getAttribute('aria-label'),
    ).toBe('Running')

    for (let step = 0; step < 3; step++) fake.advance()
    await pollOnce()
    await until(() => pageText().includes('2 / 2 complete'))
    const done = item('Conversation 1')
    expect(time('Conversation 1')).toBe('1.5s')
    expect(done?.querySelector('strong')?.textContent).toBe('Outcome')
    expect(done?.textContent).toContain('Outcome: built = 1+1')
    const raw = [...document.querySelectorAll('a')].find(
      (link) => link.textContent === 'View Full Results',
    )
    expect(raw?.getAttribute('href')).toBe('/api/admin/conversation-evals/eval-9/results/raw')
    expect(raw?.getAttribute('target')).toBe('_blank')

    const polls = fake.callsTo('/status').length
    await pollOnce(10_000)
    expect(fake.callsTo('/status')).toHaveLength(polls)
    expect(fake.callsTo('/start', 'POST')).toHaveLength(1)
  })

  it('pauses polling while the tab is hidden', async () => {
    const fake = fakeEvaluations(
      [],
      evaluationStatus('eval-2', ['conversation-a'], 'eval_outcome', 'in_progress'),
    )
    renderScreen(<EvaluationExecution evaluationId="eval-2" />)
    await until(() => field('template') === 'eval_outcome')
    expect(fake.callsTo('/start', 'POST')).toHaveLength(0)
    await pollOnce()
    await until(() => fake.callsTo('/status').length === 2)

    setVisibility('hidden')
    const polls = fake.callsTo('/status').length
    await pollOnce(10_000)
    expect(fake.callsTo('/status')).toHaveLength(polls)

    setVisibility('visible')
    await pollOnce()
    await until(() => fake.callsTo('/status').length > polls)
  })

  it("says why a failed item failed and shows the template's name", async () => {
    const evaluation = evaluationStatus('eval-3', ['conversation-a'], 'eval_outcome', 'failed')
    const [first] = evaluation.items
    if (first) Object.assign(first, { status: 'failed', error: 'The judge timed out' })
    fakeEvaluations([], { ...evaluation, completed_count: 1 })
    renderScreen(<EvaluationExecution evaluationId="eval-3" />)
    await until(() => pageText().includes('Failed: The judge timed out'))
    expect(
      item('Untitled Conversation')?.querySelector('[role="img"]')?.getAttribute('aria-label'),
    ).toBe('Failed')
    expect(pageText()).toContain('1 / 1 complete')
    // The raw results are offered only for a completed evaluation.
    expect(pageText()).not.toContain('View Full Results')
  })

  it('says when the start is refused while the evaluation stays pending', async () => {
    const fake = fakeEvaluations([], evaluationStatus('eval-4', ['conversation-a'], 'eval_outcome'))
    fake.refuseStart('The evaluation runner is shutting down')
    renderScreen(<EvaluationExecution evaluationId="eval-4" />)
    await until(() =>
      pageText().includes('Failed to start the evaluation: The evaluation runner is shutting down'),
    )
    expect(field('status')).toBe('pending')
    expect(fake.callsTo('/start', 'POST')).toHaveLength(1)
  })
})
