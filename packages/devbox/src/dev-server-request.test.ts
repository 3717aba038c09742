import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  DEV_SERVER_ANSWER_MAX_BYTES,
  DevServerAnswerError,
  devServerAnswers,
  requestDevServer,
} from './dev-server-request.ts'
import { startHostileAppServer } from './testing/hostile-app-server.ts'
import { warmDevServer } from './warm-dev-server.ts'

/**
 * Attack tests of the one reader of an app server's answers (docs/security.md "Answers of an app's
 * server"), against a real server on 127.0.0.1: an answer without end is refused at its size cap,
 * a trickling one at its total time, and nothing escapes into the process.
 */
describe('a request to an app server', () => {
  let hostile: Awaited<ReturnType<typeof startHostileAppServer>>
  const escaped: unknown[] = []
  const onEscape = (error: unknown) => escaped.push(error)

  beforeAll(async () => {
    hostile = await startHostileAppServer()
    process.on('uncaughtException', onEscape)
    process.on('unhandledRejection', onEscape)
  })
  afterAll(async () => {
    process.off('uncaughtException', onEscape)
    process.off('unhandledRejection', onEscape)
    await hostile.close()
  })

  it('reads an ordinary answer', async () => {
    expect(await requestDevServer(hostile.target, '/')).toEqual({ status: 200, body: 'ok' })
    expect(await devServerAnswers(hostile.target)).toBe(true)
  })

  it('refuses an answer without end at its cap, and the connection is closed', async () => {
    const error = await requestDevServer(hostile.target, '/endless', {
      timeoutMs: 60_000,
      maxBytes: 1024 * 1024,
    }).catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(DevServerAnswerError)
    expect((error as DevServerAnswerError).reason).toBe('too-large')
    expect((error as Error).message).toMatch(/too large \(over 1,048,576 bytes\)/)
    await expect.poll(() => hostile.open(), { timeout: 10_000 }).toBe(0)
  })

  it('has a cap without being told one', async () => {
    const error = await requestDevServer(hostile.target, '/endless', { timeoutMs: 60_000 }).catch(
      (failure: unknown) => failure,
    )
    expect((error as Error).message).toContain(DEV_SERVER_ANSWER_MAX_BYTES.toLocaleString('en-US'))
  })

  it('ends a trickling answer at its total time, not only after a silence', async () => {
    const started = Date.now()
    const error = await requestDevServer(hostile.target, '/trickle', { timeoutMs: 1500 }).catch(
      (failure: unknown) => failure,
    )
    expect((error as DevServerAnswerError).reason).toBe('too-slow')
    expect(Date.now() - started).toBeLessThan(5000)
    await expect.poll(() => hostile.open(), { timeout: 10_000 }).toBe(0)
  })

  it('ends at once when its signal aborts, and when the answer is cut off', async () => {
    const ended = new AbortController()
    const pending = requestDevServer(hostile.target, '/slow-headers', {
      timeoutMs: 60_000,
      signal: ended.signal,
    })
    ended.abort()
    await expect(pending).rejects.toThrow(/ended/)
    const signal = AbortSignal.abort()
    await expect(requestDevServer(hostile.target, '/', { signal })).rejects.toThrow(/ended/)
    await expect(requestDevServer(hostile.target, '/cut')).rejects.toThrow()
  })

  it('keeps the readiness poll and the warm-up bounded; nothing escaped into the process', async () => {
    // The readiness poll and the warm-up ask `/`: a server answering it without end is not ready.
    const endlessRoot = await startHostileAppServer({ aliases: { '/': '/endless' } })
    try {
      const started = Date.now()
      expect(await devServerAnswers(endlessRoot.target)).toBe(false)
      expect(await warmDevServer(endlessRoot.target)).toBe(0)
      expect(Date.now() - started).toBeLessThan(30_000)
      await expect.poll(() => endlessRoot.open(), { timeout: 10_000 }).toBe(0)
    } finally {
      await endlessRoot.close()
    }
    expect(escaped).toEqual([])
  })
})
