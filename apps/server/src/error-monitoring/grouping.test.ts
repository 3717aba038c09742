import { describe, expect, it } from 'vitest'
import {
  type Frame,
  fingerprintOf,
  normalizeMessage,
  normalizePath,
  topFrames,
} from './grouping.ts'

const frame = (fn: string, path: string, line = 1): Frame => ({
  function: fn,
  path,
  line,
  column: 2,
  inApp: !path.includes('node_modules'),
})

describe('grouping', () => {
  it('replaces the variable parts of a message with placeholders', () => {
    expect(normalizeMessage('User 42 not found')).toBe('User <n> not found')
    expect(normalizeMessage('Order 3f2b9c1e-8a4d-4e1f-9b2a-0c1d2e3f4a5b failed')).toBe(
      'Order <uuid> failed',
    )
    expect(normalizeMessage('GET https://api.example.com/a?b=1 failed')).toBe('GET <url> failed')
    expect(normalizeMessage('No account for ana@example.com')).toBe('No account for <email>')
    expect(normalizeMessage('Key "theme" and \'lang\' missing')).toBe('Key <str> and <str> missing')
    expect(normalizeMessage('Pointer 0x7ffd1234 and commit deadbeef01')).toBe(
      'Pointer <hex> and commit <hex>',
    )
    expect(normalizeMessage('Token tok_8Hd7s6F5g4J3k2L1 expired')).toBe('Token <id> expired')
    expect(normalizeMessage('First\nsecond\nthird is ignored')).toBe('First second')
  })

  it('strips origin, query and hash from frame paths', () => {
    expect(normalizePath('http://app.preview.localhost:3000/src/App.tsx?t=1712345')).toBe(
      '/src/App.tsx',
    )
    expect(normalizePath('/src/App.tsx#L3')).toBe('/src/App.tsx')
  })

  it('uses the three in-app frames nearest the throw, without lines or columns', () => {
    const frames = [
      frame('inner', '/node_modules/react/index.js'),
      frame('a', '/src/a.ts', 3),
      frame('b', '/src/b.ts'),
      frame('c', '/src/c.ts'),
      frame('d', '/src/d.ts'),
    ]
    expect(topFrames(frames)).toEqual(['a@/src/a.ts', 'b@/src/b.ts', 'c@/src/c.ts'])
    const moved = frames.map((each) => ({ ...each, line: 99, column: 7 }))
    expect(fingerprintOf('TypeError', 'x 1', moved, undefined)).toBe(
      fingerprintOf('TypeError', 'x 2', frames, undefined),
    )
    expect(fingerprintOf('RangeError', 'x 1', frames, undefined)).not.toBe(
      fingerprintOf('TypeError', 'x 1', frames, undefined),
    )
  })

  it("lets the event's own fingerprint decide, {{ default }} standing for the usual key", () => {
    const frames = [frame('a', '/src/a.ts')]
    expect(fingerprintOf('Error', 'one', frames, ['checkout'])).toBe(
      fingerprintOf('TypeError', 'two', [], ['checkout']),
    )
    expect(fingerprintOf('Error', 'one', frames, ['{{ default }}', 'eu'])).not.toBe(
      fingerprintOf('Error', 'one', frames, ['{{ default }}', 'us']),
    )
  })
})
