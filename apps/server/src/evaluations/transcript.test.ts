import { describe, expect, it } from 'vitest'
import { frictionChunks } from '../testing/seed-conversations.ts'
import { offlineSummary, transcriptFigures } from './offline-evaluator.ts'
import { buildTranscript, renderTranscript } from './transcript.ts'

const rowsOf = (chunks: unknown[]) =>
  chunks.map((chunk, index) => ({ chunk, createdAt: new Date(1_000_000 + index * 2_000) }))

describe('transcript and offline evaluator', () => {
  it('reads friction from the stored stream', () => {
    const figures = transcriptFigures(buildTranscript(rowsOf(frictionChunks(1))))
    expect(figures).toMatchObject({
      user_messages: 2,
      tool_calls: 2,
      tool_errors: 1,
      corrections: 1,
      interrupts: 1,
      retries: 1,
      staged_messages: 1,
      handed_back_messages: 1,
      compactions: 1,
      input_tokens: 6_600,
      last_run_status: 'finished',
      first_failing_tool_call: { name: 'shell_exec' },
    })
    expect(offlineSummary(figures)).toMatch(/^__Offline analysis \(not AI\)/)
  })

  it('counts a loop: the same failing call three times in a row', () => {
    const failing = (id: string) => [
      {
        type: 'tool-input-available',
        toolCallId: id,
        toolName: 'shell_exec',
        input: { command: 'npm run build' },
      },
      { type: 'tool-output-available', toolCallId: id, output: 'error TS2304\n[exit code 2]' },
    ]
    const chunks = [
      { type: 'data-user-message', data: { id: 'u', text: 'Build it' } },
      ...failing('a'),
      ...failing('b'),
      ...failing('c'),
      { type: 'tool-output-error', toolCallId: 'd', errorText: 'Missing secret' },
    ]
    const figures = transcriptFigures(buildTranscript(rowsOf(chunks)))
    expect(figures.loops).toBe(1)
    expect(figures.tool_errors).toBe(4)
  })

  it('keeps the head and the tail of a long transcript within the budget', () => {
    const chunks = Array.from({ length: 400 }, (_, index) => ({
      type: 'data-user-message',
      data: { id: `u${index}`, text: `message number ${index} ${'x'.repeat(80)}` },
    }))
    const text = renderTranscript(buildTranscript(rowsOf(chunks)), 6_000)
    expect(text.length).toBeLessThanOrEqual(6_000)
    expect(text).toContain('message number 0 ')
    expect(text).toContain('message number 399 ')
    expect(text).toMatch(/\[… \d+ entries left out to fit the model's context …\]/)
    expect(text).not.toContain('message number 200 ')
  })
})
