import { describe, expect, it } from 'vitest'
import { guarded } from './guarded.ts'
import type { DevboxLogger } from './logger.ts'

describe('guarded', () => {
  it('logs a throw or a rejection of the handler instead of letting it escape', async () => {
    const logged: [string, Record<string, unknown> | undefined][] = []
    const logger: DevboxLogger = {
      info: () => {},
      warn: () => {},
      error: (message, details) => logged.push([message, details]),
    }
    const seen: string[] = []
    const onData = guarded(logger, 'dev server output', (chunk: string) => {
      seen.push(chunk)
      if (chunk === 'bad') throw new RangeError(`too large: ${'x'.repeat(1000)}`)
    })
    expect(() => onData('bad')).not.toThrow()
    onData('good')
    expect(seen).toEqual(['bad', 'good'])
    expect(logged[0]?.[0]).toBe('dev server output failed; the fault stays inside this box')
    expect(logged[0]?.[1]?.error).toBe('RangeError')
    expect(String(logged[0]?.[1]?.message).length).toBeLessThanOrEqual(301)

    const onExit = guarded(logger, 'exit', async () => {
      throw new Error('later')
    })
    onExit()
    await expect.poll(() => logged.length).toBe(2)
    expect(logged[1]?.[1]).toEqual({ error: 'Error', message: 'later' })

    const throwingLogger: DevboxLogger = {
      ...logger,
      error: () => {
        throw new Error('no log')
      },
    }
    expect(() =>
      guarded(throwingLogger, 'x', () => {
        throw new Error('y')
      })(),
    ).not.toThrow()
  })
})
