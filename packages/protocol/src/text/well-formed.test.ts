import { describe, expect, it } from 'vitest'
import { storableJson, toStorableJson, toStorableText } from './well-formed.ts'

const loneHigh = '\uD83D'
const loneLow = '\uDE00'

describe('toStorableText', () => {
  it('replaces lone surrogates and NUL with U+FFFD and keeps everything else', () => {
    expect(toStorableText(`a${loneHigh}b${loneLow}c\0d`)).toBe('a\uFFFDb\uFFFDc\uFFFDd')
    expect(toStorableText('emoji 😀 stays')).toBe('emoji 😀 stays')
  })
})

describe('toStorableJson', () => {
  it('cleans every string, nested in arrays and objects, keys too', () => {
    const value = {
      type: 'text-delta',
      delta: `x${loneHigh}`,
      parts: [{ text: 'nul\0' }, 3, null, true],
      [`key${loneLow}`]: 'value',
      skipped: undefined,
    }
    expect(toStorableJson(value)).toEqual({
      type: 'text-delta',
      delta: 'x\uFFFD',
      parts: [{ text: 'nul\uFFFD' }, 3, null, true],
      'key\uFFFD': 'value',
    })
  })

  it('serialises what has toJSON, as JSON.stringify does', () => {
    expect(toStorableJson({ at: new Date(0) })).toEqual({ at: '1970-01-01T00:00:00.000Z' })
  })
})

describe('storableJson', () => {
  it('writes no NUL or lone surrogate escape, which jsonb refuses', () => {
    const json = storableJson({ delta: `${loneHigh}\0😀` })
    expect(json).not.toMatch(/\\u0000|\\ud[89a-f]/i)
    expect(JSON.parse(json)).toEqual({ delta: '\uFFFD\uFFFD😀' })
  })

  it('leaves clean values as JSON.stringify writes them', () => {
    const value = { text: 'a "quoted" \\ud83d-looking text', list: [1, 2] }
    expect(storableJson(value)).toBe(JSON.stringify(value))
  })
})

describe('toStorableJson on hostile shapes', () => {
  it('copies 10,000 levels of nesting without overflowing the stack', () => {
    const depth = 10_000
    const copy = toStorableJson(JSON.parse(`${'['.repeat(depth)}"\\ud800"${']'.repeat(depth)}`))
    let level: unknown = copy
    for (let index = 0; index < depth; index++) level = (level as unknown[])[0]
    expect(level).toBe('\uFFFD')
  })

  it('keeps __proto__ an own key and the key order of the source', () => {
    const copy = toStorableJson(JSON.parse('{"b":1,"__proto__":{"polluted":true},"a":[2,3]}'))
    expect(Object.keys(copy as object)).toEqual(['b', '__proto__', 'a'])
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined()
  })
})
