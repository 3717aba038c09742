import { setTimeout as delay } from 'node:timers/promises'

/** Asks `check` every `everyMs` until it gives a value; past `timeoutMs` says what it waited for. */
export async function waitFor<T>(
  what: () => string,
  timeoutMs: number,
  check: () => T | undefined | Promise<T | undefined>,
  everyMs = 40,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what()}`)
    await delay(everyMs)
  }
}
