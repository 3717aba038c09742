import {
  EDITOR_READY_MAX_POLLS,
  EDITOR_READY_POLL_INTERVAL_MS,
} from '@sprout/protocol/constants.ts'
import type { EditorReadiness } from './application-api.ts'

/** The editor did not become ready within the allowed polls. */
export class EditorReadyTimeoutError extends Error {
  override name = 'EditorReadyTimeoutError'
}

/** The server said the dev box failed; polling longer will not help. */
export class EditorFailedError extends Error {
  override name = 'EditorFailedError'
}

export type WaitForEditorReadyOptions = {
  check: (signal?: AbortSignal) => Promise<EditorReadiness>
  signal?: AbortSignal
  maxPolls?: number
  intervalMs?: number
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>
  /** The box waits its turn to start, behind `position` others. */
  onQueued?: (position: number) => void
}

function abortableSleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(resolve, milliseconds)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        reject(signal.reason)
      },
      { once: true },
    )
  })
}

/**
 * Asks once a second, up to 60 times (docs/product/applications.md), until the editor answers
 * ready. An answer that the box waits its turn to start (`queue_position`) is not counted: a burst
 * of new apps degrades into waiting, not into a timeout.
 */
export async function waitForEditorReady({
  check,
  signal,
  maxPolls = EDITOR_READY_MAX_POLLS,
  intervalMs = EDITOR_READY_POLL_INTERVAL_MS,
  sleep = abortableSleep,
  onQueued,
}: WaitForEditorReadyOptions): Promise<void> {
  for (let poll = 1; poll <= maxPolls; poll += 1) {
    const readiness = await check(signal)
    if (readiness.error) throw new EditorFailedError(readiness.error)
    if (readiness.ready) return
    if (readiness.queue_position !== undefined) {
      onQueued?.(readiness.queue_position)
      poll -= 1
    }
    if (poll < maxPolls) await sleep(intervalMs, signal)
  }
  throw new EditorReadyTimeoutError(`The editor was not ready after ${maxPolls} polls.`)
}
