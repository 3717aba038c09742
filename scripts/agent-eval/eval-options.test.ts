import { describe, expect, it } from 'vitest'
import { OptionsError, parseEvalOptions } from './eval-options.ts'

describe('the --browser-tool option', () => {
  it('is on by default, off when asked, and refuses anything else', () => {
    expect(parseEvalOptions(['--model', 'demo']).browserTool).toBe(true)
    expect(parseEvalOptions(['--model', 'demo', '--browser-tool', 'off']).browserTool).toBe(false)
    expect(() => parseEvalOptions(['--model', 'demo', '--browser-tool', 'maybe'])).toThrow(
      new OptionsError('--browser-tool must be on or off, not "maybe"'),
    )
  })
})
