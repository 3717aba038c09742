import http from 'node:http'
import { StringDecoder } from 'node:string_decoder'
import type { DevServerTarget } from './devbox-driver.ts'

/** The connection options of node:http for a dev server target. */
export function targetConnection(target: DevServerTarget): http.RequestOptions {
  return 'socketPath' in target
    ? { socketPath: target.socketPath }
    : { hostname: target.host, port: target.port }
}

/**
 * The longest answer read unless the caller says otherwise: the app's server may answer anything,
 * and a body without end once filled a string until `RangeError: Invalid string length` ended
 * Sprout (docs/security.md "Answers of an app's server"). A page's modules fit with room to spare.
 */
export const DEV_SERVER_ANSWER_MAX_BYTES = 8 * 1024 * 1024

/** Why a request to an app's server failed on Sprout's side: too long an answer, or too slow a one. */
export class DevServerAnswerError extends Error {
  readonly reason: 'too-large' | 'too-slow'

  constructor(reason: 'too-large' | 'too-slow', message: string) {
    super(message)
    this.reason = reason
  }
}

/**
 * One request to a dev server (readiness checks, tests; GET unless told); the body is text. The
 * whole exchange, headers and body, ends within `timeoutMs` (2 s by default) and reads at most
 * `maxBytes` of body: a server that streams without end or trickles is cut off and refused.
 */
export function requestDevServer(
  target: DevServerTarget | undefined,
  requestPath = '/',
  options: {
    timeoutMs?: number
    headers?: http.OutgoingHttpHeaders
    method?: string
    body?: string
    /** A longer answer is refused; DEV_SERVER_ANSWER_MAX_BYTES unless told. */
    maxBytes?: number
    /** Ends the request at once (a check's part that ran out of time). */
    signal?: AbortSignal
  } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    if (!target) return reject(new Error('The dev server is not running'))
    const timeoutMs = options.timeoutMs ?? 2000
    const maxBytes = options.maxBytes ?? DEV_SERVER_ANSWER_MAX_BYTES
    const { signal } = options
    let settled = false
    const settle = (error: Error | undefined, status = 0, body = '') => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      if (error) {
        request.destroy()
        reject(error)
      } else {
        resolve({ status, body })
      }
    }
    const onAbort = () => settle(new Error('The request to the dev server was ended'))
    const request = http.request(
      {
        ...targetConnection(target),
        method: options.method ?? 'GET',
        path: requestPath,
        headers: { host: 'localhost', ...options.headers },
        timeout: timeoutMs,
      },
      (response) => {
        // Bytes counted as they come, decoded as setEncoding would: nothing more per chunk.
        const decoder = new StringDecoder('utf8')
        let received = 0
        let body = ''
        response.on('data', (chunk: Buffer) => {
          if (settled) return
          received += chunk.length
          if (received > maxBytes) {
            return settle(
              new DevServerAnswerError(
                'too-large',
                `the answer is too large (over ${maxBytes.toLocaleString('en-US')} bytes)`,
              ),
            )
          }
          body += decoder.write(chunk)
        })
        response.on('end', () => settle(undefined, response.statusCode ?? 0, body + decoder.end()))
        response.on('error', (error) => settle(error))
        response.on('close', () => {
          if (!response.complete) settle(new Error('The dev server ended its answer early'))
        })
      },
    )
    // The whole exchange, not only a silence: a server trickling a byte a second is never idle.
    const timer = setTimeout(
      () =>
        settle(
          new DevServerAnswerError(
            'too-slow',
            `The dev server did not answer in time (${timeoutMs.toLocaleString('en-US')} ms)`,
          ),
        ),
      timeoutMs,
    )
    timer.unref()
    request.on('timeout', () =>
      settle(new DevServerAnswerError('too-slow', 'The dev server did not answer in time')),
    )
    // Every error of the exchange after it settled is expected (the request was destroyed).
    request.on('error', (error) => settle(error))
    if (signal?.aborted) return onAbort()
    signal?.addEventListener('abort', onAbort, { once: true })
    request.end(options.body)
  })
}

/** True when the dev server answers HTTP at all. */
export async function devServerAnswers(target: DevServerTarget | undefined): Promise<boolean> {
  try {
    await requestDevServer(target)
    return true
  } catch {
    return false
  }
}
