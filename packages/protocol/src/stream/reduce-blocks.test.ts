// Long file: the reducer's rules, one per test, as docs/architecture/stream-protocol.md lists them.
import { describe, expect, it } from 'vitest'
import { prepareMessageText } from '../text/strip-markers.ts'
import { type BlocksEvent, type BlocksState, createBlocksState } from './blocks-state.ts'
import { reduceBlocks } from './reduce-blocks.ts'

const reduceAll = (events: BlocksEvent[], state: BlocksState = createBlocksState()) =>
  events.reduce(reduceBlocks, state)

const text = (id: string, ...deltas: string[]): BlocksEvent[] => [
  { type: 'text-start', id },
  ...deltas.map((delta): BlocksEvent => ({ type: 'text-delta', id, delta })),
  { type: 'text-end', id },
]

const tool = (
  toolCallId: string,
  toolName: string,
  input: unknown,
  output: unknown,
): [BlocksEvent, BlocksEvent, BlocksEvent, BlocksEvent] => [
  { type: 'tool-input-start', toolCallId, toolName },
  { type: 'tool-input-delta', toolCallId, inputTextDelta: '{}' },
  { type: 'tool-input-available', toolCallId, toolName, input },
  { type: 'tool-output-available', toolCallId, output },
]

const summary = (state: BlocksState) =>
  state.blocks.map((block) =>
    block.type === 'tool'
      ? `${block.toolName}${block.toolIsError ? '!' : ''}`
      : `${block.role}/${block.type}: ${block.content || block.reasoningContent}`,
  )

describe('reduceBlocks: streaming', () => {
  it('streams assistant text into one block and completes it at the end event', () => {
    const started = reduceAll([
      { type: 'start', messageId: 'm1' },
      { type: 'start-step' },
      { type: 'text-start', id: '0' },
      { type: 'text-delta', id: '0', delta: 'Hel' },
      { type: 'text-delta', id: '0', delta: 'lo' },
    ])
    expect(started.isRunning).toBe(true)
    expect(started.blocks).toEqual([
      expect.objectContaining({
        type: 'text',
        role: 'assistant',
        content: 'Hello',
        isStreaming: true,
        isComplete: false,
      }),
    ])
    const ended = reduceAll([{ type: 'text-end', id: '0' }], started)
    expect(ended.blocks[0]).toMatchObject({ isStreaming: false, isComplete: true })
  })

  it('streams reasoning into reasoningContent', () => {
    const state = reduceAll([
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'Thinking ' },
      { type: 'reasoning-delta', id: 'r', delta: 'hard' },
      { type: 'reasoning-end', id: 'r' },
    ])
    expect(state.blocks[0]).toMatchObject({
      type: 'reasoning',
      content: '',
      reasoningContent: 'Thinking hard',
      isComplete: true,
    })
  })

  it('follows a tool call from start to output', () => {
    const [start, delta, available, output] = tool('t1', 'view_file', { path: 'a.ts' }, 'x')
    const started = reduceAll([start, delta])
    expect(started.blocks[0]).toMatchObject({
      id: 'tool-t1',
      type: 'tool',
      toolName: 'view_file',
      toolInput: undefined,
      isStreaming: true,
    })
    const withInput = reduceAll([available], started)
    expect(withInput.blocks[0]).toMatchObject({ toolInput: { path: 'a.ts' }, isComplete: false })
    expect(reduceAll([output], withInput).blocks[0]).toMatchObject({
      toolOutput: 'x',
      toolIsError: false,
      isComplete: true,
      isStreaming: false,
    })
  })

  it('streams shell output until the final output replaces it', () => {
    const running = reduceAll([
      { type: 'tool-input-available', toolCallId: 's', toolName: 'shell_exec', input: {} },
      { type: 'data-tool-output-delta', data: { toolCallId: 's', delta: 'line 1\n' } },
      { type: 'data-tool-output-delta', data: { toolCallId: 's', delta: 'line 2\n' } },
    ])
    expect(running.blocks[0]?.toolOutput).toBe('line 1\nline 2\n')
    const done = reduceAll(
      [
        { type: 'tool-output-available', toolCallId: 's', output: { exitCode: 0 } },
        { type: 'data-tool-output-delta', data: { toolCallId: 's', delta: 'late' } },
      ],
      running,
    )
    expect(done.blocks[0]?.toolOutput).toEqual({ exitCode: 0 })
  })

  it('marks tool errors', () => {
    const state = reduceAll([
      { type: 'tool-input-available', toolCallId: 'a', toolName: 'view_file', input: {} },
      { type: 'tool-output-error', toolCallId: 'a', errorText: 'No such file' },
      {
        type: 'tool-input-error',
        toolCallId: 'b',
        toolName: 'write_file',
        input: { path: 1 },
        errorText: 'path must be a string',
      },
    ])
    expect(
      state.blocks.map((block) => [block.toolOutput, block.toolIsError, block.isComplete]),
    ).toEqual([
      ['No such file', true, true],
      ['path must be a string', true, true],
    ])
  })

  it('keeps preliminary tool outputs open', () => {
    const state = reduceAll([
      { type: 'tool-input-available', toolCallId: 'a', toolName: 'web_search', input: {} },
      { type: 'tool-output-available', toolCallId: 'a', output: 'partial', preliminary: true },
    ])
    expect(state.blocks[0]).toMatchObject({ toolOutput: 'partial', isComplete: false })
  })
})

describe('reduceBlocks: Blocks rules (docs/product/builder.md)', () => {
  it('ignores events for complete blocks', () => {
    const state = reduceAll([
      ...text('0', 'Done.'),
      { type: 'text-delta', id: '0', delta: ' More?' },
      ...tool('t', 'get_time', {}, '12:00'),
      { type: 'tool-output-available', toolCallId: 't', output: 'changed' },
      { type: 'tool-output-error', toolCallId: 't', errorText: 'late' },
    ])
    expect(state.blocks[0]?.content).toBe('Done.')
    expect(state.blocks[1]).toMatchObject({ toolOutput: '12:00', toolIsError: false })
  })

  it('drops duplicate non-delta events', () => {
    const events = (path: string): BlocksEvent[] => [
      { type: 'data-user-message', data: { id: 'u1', text: 'Hi' } },
      { type: 'text-start', id: '0' },
      { type: 'tool-input-start', toolCallId: 't', toolName: 'view_file' },
      { type: 'tool-input-available', toolCallId: 't', toolName: 'view_file', input: { path } },
      { type: 'data-error', data: { error: 'Boom', errorType: 'internal' } },
    ]
    const once = reduceAll(events('a'))
    const twice = reduceAll(events('b'), once)
    expect(twice).toEqual(once)
  })

  it('does not drop repeated deltas', () => {
    const state = reduceAll(text('0', 'ha', 'ha', 'ha'))
    expect(state.blocks[0]?.content).toBe('hahaha')
  })

  it("suppresses the user's own echo once it was added locally", () => {
    const local = reduceAll([{ type: 'local-user-message', text: 'Add a footer', clientId: 'c1' }])
    expect(summary(local)).toEqual(['user/text: Add a footer'])
    const echoed = reduceAll(
      [
        { type: 'data-user-message', data: { id: 'u1', text: 'Add a footer', clientId: 'c1' } },
        // The same text sent again from another tab is shown.
        { type: 'data-user-message', data: { id: 'u2', text: 'Add a footer', clientId: 'c9' } },
      ],
      local,
    )
    expect(summary(echoed)).toEqual(['user/text: Add a footer', 'user/text: Add a footer'])
    expect(echoed.pendingEchoes).toEqual([])
  })

  it("keeps a user message's images, the local one's and the echo's", () => {
    const image = { id: 'i1', media_type: 'image/png', width: 64, height: 48, size: 200 } as const
    const local = reduceAll([
      { type: 'local-user-message', text: 'Like this', clientId: 'c1', images: [image] },
      {
        type: 'data-user-message',
        data: { id: 'u1', text: 'Like this', clientId: 'c1', images: [image] },
      },
      { type: 'data-user-message', data: { id: 'u2', text: 'And this', images: [image] } },
      { type: 'data-user-message', data: { id: 'u3', text: 'No image' } },
    ])
    expect(local.blocks.map((block) => block.images)).toEqual([[image], [image], undefined])
  })

  it('matches an echo without clientId by its text', () => {
    const state = reduceAll([
      { type: 'local-user-message', text: 'Hello', clientId: 'c1' },
      { type: 'data-user-message', data: { id: 'u1', text: 'Hello' } },
      { type: 'data-user-message', data: { id: 'u2', text: 'Hello' } },
    ])
    expect(summary(state)).toEqual(['user/text: Hello', 'user/text: Hello'])
  })

  it('merges assistant text with a preceding assistant text', () => {
    const state = reduceAll([
      ...text('0', 'First part.'),
      { type: 'finish-step' },
      { type: 'start-step' },
      ...text('0', 'Second part.'),
      ...text('1', '\n\nThird part.'),
    ])
    expect(summary(state)).toEqual(['assistant/text: First part.\n\nSecond part.\n\nThird part.'])
    expect(state.blocks[0]).toMatchObject({ isComplete: true, isStreaming: false })
  })

  it('does not merge across a user message or an action', () => {
    const state = reduceAll([
      ...text('0', 'One'),
      { type: 'data-user-message', data: { id: 'u', text: 'Go on' } },
      ...text('0', 'Two'),
      ...tool('t', 'get_time', {}, 'noon'),
      ...text('0', 'Three'),
    ])
    expect(summary(state)).toEqual([
      'assistant/text: One',
      'user/text: Go on',
      'assistant/text: Two',
      'get_time',
      'assistant/text: Three',
    ])
  })

  it('trims the trailing colon of text followed by an action', () => {
    const state = reduceAll([
      ...text('0', 'Let me look at the files:'),
      ...tool('t', 'list_files', {}, 'a.ts'),
      ...text('1', 'Now thinking:  \n'),
      { type: 'reasoning-start', id: 'r' },
      ...text('2', 'The answer:'),
    ])
    expect(state.blocks.map((block) => block.content)).toEqual([
      'Let me look at the files',
      '',
      'Now thinking',
      '',
      'The answer:',
    ])
  })

  it('ignores unknown chunk types', () => {
    const state = reduceAll(text('0', 'Hi'))
    expect(reduceBlocks(state, { type: 'custom', kind: 'anthropic.thing' })).toBe(state)
    expect(reduceBlocks(state, { type: 'source-url', sourceId: 's', url: 'x' })).toBe(state)
    expect(reduceBlocks(state, { type: 'local-unknown' })).toBe(state)
  })

  it('gives the same ids when the same events are replayed', () => {
    const events: BlocksEvent[] = [
      { type: 'data-user-message', data: { id: 'u', text: 'Hi' } },
      ...text('0', 'Hello'),
      { type: 'reasoning-start', id: '0' },
      { type: 'error', errorText: 'x' },
    ]
    const first = reduceAll(events)
    expect(reduceAll(events)).toEqual(first)
    expect(first.blocks.map((block) => block.id)).toEqual([
      'user-u',
      'text-1',
      'reasoning-2',
      'error-3',
    ])
  })

  it('never mutates the state it is given', () => {
    const events: BlocksEvent[] = [
      { type: 'start' },
      { type: 'local-user-message', text: 'Hi', clientId: 'c' },
      { type: 'data-user-message', data: { id: 'u', text: 'Hi', clientId: 'c' } },
      ...text('0', 'Hello:'),
      ...tool('t', 'shell_exec', { command: 'ls' }, 'a'),
      { type: 'local-stage', id: 's', text: 'More' },
      { type: 'data-staged', data: { id: 's', status: 'unsent', text: 'More' } },
      { type: 'data-compaction', data: { status: 'started' } },
      { type: 'finish' },
    ]
    let state = createBlocksState()
    for (const event of events) {
      const snapshot = structuredClone(state)
      deepFreeze(state)
      state = reduceBlocks(state, event)
      expect(reduceBlocks(snapshot, event)).toEqual(state)
    }
  })
})

describe('reduceBlocks: Agent run (docs/product/builder.md)', () => {
  it('start sets running; earlier errors stay in the transcript as blocks', () => {
    const failed = reduceAll([{ type: 'error', errorText: 'Provider down' }])
    expect(failed.blocks).toEqual([
      expect.objectContaining({ id: 'error-1', type: 'error', content: 'Provider down' }),
    ])
    expect(failed.blocks[0]?.errorType).toBeNull()
    const restarted = reduceAll([{ type: 'start' }], failed)
    expect(restarted.isRunning).toBe(true)
    expect(restarted.blocks).toBe(failed.blocks)
  })

  it('keeps every error in order between the messages, and the same error repeated once', () => {
    const failure = (id: string): BlocksEvent[] => [
      { type: 'data-user-message', data: { id, text: `message ${id}` } },
      { type: 'start' },
      { type: 'data-error', data: { error: 'Overloaded', errorType: 'overloaded' } },
      { type: 'data-error', data: { error: 'Overloaded', errorType: 'overloaded' } },
      { type: 'finish' },
    ]
    const state = reduceAll([...failure('1'), ...failure('2'), ...failure('3')])
    expect(state.blocks.map((block) => `${block.type}:${block.content}`)).toEqual([
      'text:message 1',
      'error:Overloaded',
      'text:message 2',
      'error:Overloaded',
      'text:message 3',
      'error:Overloaded',
    ])
    expect(new Set(state.blocks.map((block) => block.id)).size).toBe(6)
  })

  it('an error after text does not take the colon off the text before it', () => {
    const state = reduceAll([
      { type: 'start' },
      ...text('0', 'Let me look:'),
      { type: 'error', errorText: 'Provider down' },
    ])
    expect(state.blocks[0]?.content).toBe('Let me look:')
  })

  it('finish clears running, the interrupt state, staged and failed messages', () => {
    const busy = reduceAll([
      { type: 'start' },
      { type: 'local-interrupt' },
      { type: 'local-stage', id: 's1', text: 'one' },
      { type: 'local-stage', id: 's2', text: 'two' },
      { type: 'data-staged', data: { id: 's2', status: 'unsent', text: 'two' } },
      { type: 'text-start', id: '0' },
      { type: 'tool-input-start', toolCallId: 't', toolName: 'shell_exec' },
    ])
    expect(busy).toMatchObject({
      isRunning: true,
      isInterrupting: true,
      stagedMessages: [{ id: 's1', text: 'one' }],
      failedMessages: [{ id: 's2', text: 'two' }],
    })
    const finished = reduceAll([{ type: 'finish' }], busy)
    expect(finished).toMatchObject({
      isRunning: false,
      isInterrupting: false,
      stagedMessages: [],
      failedMessages: [],
      openParts: {},
    })
    expect(finished.blocks.every((block) => block.isComplete && !block.isStreaming)).toBe(true)
  })

  it('an interrupt-type error stops running; other errors do not', () => {
    const running = reduceAll([{ type: 'start' }, { type: 'local-interrupt' }, ...text('0', 'a')])
    const rateLimited = reduceAll(
      [{ type: 'data-error', data: { error: '429', errorType: 'ratelimited' } }],
      running,
    )
    expect(rateLimited.isRunning).toBe(true)
    expect(rateLimited.blocks.at(-1)).toMatchObject({
      type: 'error',
      content: '429',
      errorType: 'ratelimited',
    })
    const interrupted = reduceAll(
      [{ type: 'data-error', data: { error: 'Interrupted', errorType: 'interrupt' } }],
      running,
    )
    expect(interrupted).toMatchObject({ isRunning: false, isInterrupting: false })
  })

  it('abort and a terminal data-run end the run and complete open blocks', () => {
    for (const end of [
      { type: 'abort' },
      { type: 'data-run', data: { runId: 'r', status: 'failed' } },
    ] satisfies BlocksEvent[]) {
      const state = reduceAll([
        { type: 'data-run', data: { runId: 'r', status: 'running' } },
        { type: 'text-start', id: '0' },
        { type: 'text-delta', id: '0', delta: 'partial' },
        end,
        { type: 'text-delta', id: '0', delta: ' more' },
      ])
      expect(state.isRunning).toBe(false)
      expect(state.blocks[0]).toMatchObject({ content: 'partial', isComplete: true })
    }
  })

  it('moves staged messages answered sent or unsent', () => {
    const state = reduceAll([
      { type: 'local-stage', id: 'a', text: 'first' },
      { type: 'local-stage', id: 'b', text: 'second' },
      { type: 'local-stage', id: 'b', text: 'second' },
      { type: 'data-staged', data: { id: 'a', status: 'sent', text: 'first' } },
      { type: 'data-user-message', data: { id: 'u', text: 'first', clientId: 'a' } },
      { type: 'data-staged', data: { id: 'b', status: 'unsent', text: 'second' } },
      { type: 'data-staged', data: { id: 'b', status: 'unsent', text: 'second' } },
    ])
    expect(state.stagedMessages).toEqual([])
    expect(state.failedMessages).toEqual([{ id: 'b', text: 'second' }])
    expect(summary(state)).toEqual(['user/text: first'])
    const cleared = reduceAll([{ type: 'local-clear-failed' }], state)
    expect(cleared.failedMessages).toEqual([])
  })

  it('tracks usage and compaction', () => {
    const usage = {
      inputTokens: 10,
      cacheReadTokens: 20,
      outputTokens: 5,
      used: 35,
      limit: 100,
      percentage: 35,
    }
    const compacting = reduceAll([
      { type: 'data-usage', data: usage },
      { type: 'data-compaction', data: { status: 'started' } },
      { type: 'data-compaction', data: { status: 'started' } },
    ])
    expect(compacting).toMatchObject({ usage, isCompacting: true })
    expect(compacting.blocks).toHaveLength(1)
    expect(prepareMessageText(compacting.blocks[0]?.content ?? '')).toEqual({ kind: 'compaction' })
    const done = reduceAll([{ type: 'data-compaction', data: { status: 'done' } }], compacting)
    expect(done.isCompacting).toBe(false)
  })
})

describe('reduceBlocks: performance', () => {
  it('takes 10,000 deltas into a 2,000-block conversation well under a second', () => {
    const history: BlocksEvent[] = []
    for (let turn = 0; turn < 1_000; turn++) {
      history.push({
        type: 'data-user-message',
        data: { id: `u${turn}`, text: `Question ${turn}` },
      })
      if (turn < 999) history.push(...text('0', `Answer ${turn}`))
    }
    const ready = reduceAll([...history, { type: 'text-start', id: 'live' }])
    expect(ready.blocks).toHaveLength(2_000)

    const startedAt = performance.now()
    let state = ready
    for (let index = 0; index < 10_000; index++) {
      state = reduceBlocks(state, { type: 'text-delta', id: 'live', delta: 'word ' })
    }
    const elapsed = performance.now() - startedAt

    expect(state.blocks.at(-1)?.content.length).toBe(50_000)
    expect(state.blocks[0]).toBe(ready.blocks[0])
    expect(elapsed).toBeLessThan(1_000)
  })
})

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return
  Object.freeze(value)
  for (const child of Object.values(value)) deepFreeze(child)
}
