import http from 'node:http'
import type { DevServerTarget } from './devbox-driver.ts'

/** The connection options of node:http for a dev server target. */
export function targetConnection(target: DevServerTarget): http.RequestOptions {
  return 'socketPath' in target
    ? { socketPath: target.socketPath }
    : { hostname: target.host, port: target.port }
}

/** One request to a dev server (readiness checks, tests; GET unless told); the body is text. */
export function requestDevServer(
  target: DevServerTarget | undefined,
  requestPath = '/',
  options: {
    timeoutMs?: number
    headers?: http.OutgoingHttpHeaders
    method?: string
    body?: string
    /** A longer answer is refused (the app's own server may answer anything). */
    maxBytes?: number
  } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    if (!target) return reject(new Error('The dev server is not running'))
    const request = http.request(
      {
        ...targetConnection(target),
        method: options.method ?? 'GET',
        path: requestPath,
        headers: { host: 'localhost', ...options.headers },
        timeout: options.timeoutMs ?? 2000,
      },
      (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          body += chunk
          if (options.maxBytes !== undefined && body.length > options.maxBytes) {
            request.destroy(new Error('The dev server answered too much'))
          }
        })
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
        response.on('error', reject)
      },
    )
    request.on('timeout', () => request.destroy(new Error('The dev server did not answer in time')))
    request.on('error', reject)
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
