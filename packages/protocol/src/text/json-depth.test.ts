import { describe, expect, it } from 'vitest'
import { exceedsJsonDepth, JSON_MAX_DEPTH } from './json-depth.ts'

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`

describe('exceedsJsonDepth', () => {
  it('allows the limit and refuses one level more, arrays and objects alike', () => {
    expect(exceedsJsonDepth(nested(JSON_MAX_DEPTH))).toBe(false)
    expect(exceedsJsonDepth(nested(JSON_MAX_DEPTH + 1))).toBe(true)
    const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
    expect(exceedsJsonDepth(objects(JSON_MAX_DEPTH))).toBe(false)
    expect(exceedsJsonDepth(objects(JSON_MAX_DEPTH + 1))).toBe(true)
  })

  it('ignores brackets inside strings, escaped quotes included', () => {
    const brackets = '['.repeat(1000)
    expect(exceedsJsonDepth(JSON.stringify({ text: brackets }))).toBe(false)
    expect(exceedsJsonDepth(JSON.stringify({ text: `\\"${brackets}`, quoted: '"[[' }))).toBe(false)
    expect(exceedsJsonDepth(`["\\\\", ${nested(JSON_MAX_DEPTH)}]`)).toBe(true)
  })

  it('scans 10,000 levels without recursion', () => {
    expect(exceedsJsonDepth(nested(10_000))).toBe(true)
    expect(exceedsJsonDepth('not json at all')).toBe(false)
  })
})
