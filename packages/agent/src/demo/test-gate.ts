import { existsSync, watch } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'

// docs/decisions/013-test-gates.md: a run of the Demo model that a test holds open.
const gatePattern = /\s*\[test-gate:([A-Za-z0-9_-]{1,64})\]/

/** The gate a message names with `[test-gate:NAME]`, if any. */
export function findTestGate(text: string): string | undefined {
  return gatePattern.exec(text)?.[1]
}

/** The message as the Demo model reads it: without its gate. */
export function withoutTestGate(text: string): string {
  return text.replace(gatePattern, '')
}

/**
 * Resolves once the file `directory/name` exists (the test's release), or rejects with the
 * signal's reason when the run is interrupted first.
 */
export async function waitForTestGate(
  directory: string,
  name: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  await mkdir(directory, { recursive: true })
  const released = path.join(directory, name)
  await new Promise<void>((resolve, reject) => {
    const finish = (error?: unknown) => {
      watcher.close()
      signal?.removeEventListener('abort', onAbort)
      if (error === undefined) resolve()
      else reject(error)
    }
    const onAbort = () =>
      finish(signal?.reason ?? new DOMException('This operation was aborted', 'AbortError'))
    // Watching starts before the first look, so a release in between is not missed.
    const watcher = watch(directory, () => {
      if (existsSync(released)) finish()
    })
    watcher.on('error', finish)
    signal?.addEventListener('abort', onAbort, { once: true })
    if (signal?.aborted) onAbort()
    else if (existsSync(released)) finish()
  })
}
