import { describe, expect, it } from 'vitest'
import { formatSseComment, formatSseEvent, SSE_HEARTBEAT } from './sse-event.ts'
import { createSseParser, type SseEvent } from './sse-parser.ts'

const stream = [
  '\uFEFF: connected\n\n',
  'id: 1\ndata: {"text":"héllo 👋 世界"}\n\n',
  SSE_HEARTBEAT,
  'id: 2\r\nevent: usage\r\ndata: first line\r\ndata: second line\r\n\r\n',
  'data:no space\rdata:  two spaces\r\r',
  'id: 3\ndata\n\n',
  'event: ignored-without-data\n\n',
  'id: 4\nretry: 2500\nunknown: field\ndata: {"a":1}\n: a comment in the middle\ndata: end\n\n',
  formatSseEvent({ id: 5, data: 'multi\nline\r\ndata' }),
  'id: 6\ndata: unterminated',
].join('')

const expected: SseEvent[] = [
  { id: '1', event: 'message', data: '{"text":"héllo 👋 世界"}' },
  { id: '2', event: 'usage', data: 'first line\nsecond line' },
  { id: '2', event: 'message', data: 'no space\n two spaces' },
  { id: '3', event: 'message', data: '' },
  { id: '4', event: 'message', data: '{"a":1}\nend' },
  { id: '5', event: 'message', data: 'multi\nline\ndata' },
]

const bytes = new TextEncoder().encode(stream)

function parseAll(pieces: Array<string | Uint8Array>): SseEvent[] {
  const parser = createSseParser()
  return pieces.flatMap((piece) => parser.feed(piece))
}

describe('createSseParser', () => {
  it('parses a whole stream', () => {
    const parser = createSseParser()
    expect(parser.feed(stream)).toEqual(expected)
    expect(parser.lastEventId).toBe('6')
    expect(parser.retry).toBe(2500)
  })

  it('gives the same events whatever byte boundary the stream is split at', () => {
    for (let split = 0; split <= bytes.length; split++) {
      const events = parseAll([bytes.subarray(0, split), bytes.subarray(split)])
      expect(events, `split at byte ${split}`).toEqual(expected)
    }
  })

  it('gives the same events when split at two boundaries', () => {
    for (let first = 0; first <= bytes.length; first += 7) {
      for (let second = first; second <= bytes.length; second++) {
        const events = parseAll([
          bytes.subarray(0, first),
          bytes.subarray(first, second),
          bytes.subarray(second),
        ])
        expect(events, `split at bytes ${first} and ${second}`).toEqual(expected)
      }
    }
  })

  it('gives the same events fed one byte or one character at a time', () => {
    expect(parseAll([...bytes].map((byte) => Uint8Array.of(byte)))).toEqual(expected)
    expect(parseAll([...stream])).toEqual(expected)
  })

  it('does not treat a CR at the end of one piece and an LF at the start of the next as two lines', () => {
    expect(parseAll(['data: a\r', '\ndata: b\r', '\n\r', '\n'])).toEqual([
      { id: '', event: 'message', data: 'a\nb' },
    ])
  })
})

describe('formatSseEvent', () => {
  it('writes id, event, retry and one data line per line', () => {
    expect(formatSseEvent({ id: 7, event: 'chunk', retry: 1000, data: 'a\nb' })).toBe(
      'event: chunk\nid: 7\nretry: 1000\ndata: a\ndata: b\n\n',
    )
    expect(formatSseEvent({ data: '' })).toBe('data: \n\n')
  })

  it('refuses multi-line ids', () => {
    expect(() => formatSseEvent({ id: '1\n2', data: 'x' })).toThrow(/single line/)
  })

  it('writes comments and the heartbeat', () => {
    expect(SSE_HEARTBEAT).toBe(': heartbeat\n\n')
    expect(formatSseComment('a\nb')).toBe(': a\n: b\n\n')
    expect(formatSseComment()).toBe(':\n\n')
  })
})
