import http from 'node:http'
import type { ProductApi } from './product-api.ts'

/**
 * The app's preview as a signed-in member reaches it (docs/product/api.md `POST
 * /api/org/devbox-token`): a single-use token exchanged at the preview's callback for its cookie.
 * Requests go to 127.0.0.1 with the preview's Host header: `*.localhost` may not resolve here.
 */
export type PreviewAccess = {
  /** http://{slug}.preview.localhost:{port} */
  origin: string
  cookie: { name: string; value: string }
  request: (input: { method: string; path: string; body?: unknown }) => Promise<PreviewAnswer>
}

export type PreviewAnswer = { status: number; body: string }

const requestTimeoutMs = 60_000

export async function openPreview(api: ProductApi, previewUrl: string): Promise<PreviewAccess> {
  const origin = new URL(previewUrl).origin
  const host = new URL(previewUrl).host
  const { token } = await api.call<{ token: string }>('/api/org/devbox-token', {
    body: { devbox_url: origin },
  })
  const query = new URLSearchParams({ token, return: '/' })
  const exchanged = await send(api.port, host, {
    method: 'GET',
    path: `/__sprout/auth/callback?${query}`,
  })
  const pair = exchanged.setCookie[0]?.split(';')[0] ?? ''
  const separator = pair.indexOf('=')
  if (exchanged.status !== 302 || separator <= 0) {
    throw new Error(`The preview's hand-off failed: ${exchanged.status} ${exchanged.body}`)
  }
  const cookie = { name: pair.slice(0, separator), value: pair.slice(separator + 1) }
  return {
    origin,
    cookie,
    request: async (input) => {
      const answer = await send(api.port, host, input, `${cookie.name}=${cookie.value}`)
      return { status: answer.status, body: answer.body }
    },
  }
}

function send(
  port: number,
  host: string,
  input: { method: string; path: string; body?: unknown },
  cookie?: string,
) {
  const body = input.body === undefined ? undefined : JSON.stringify(input.body)
  const headers: Record<string, string> = { host, accept: 'application/json, */*' }
  if (cookie) headers.cookie = cookie
  if (body !== undefined) headers['content-type'] = 'application/json'
  return new Promise<PreviewAnswer & { setCookie: string[] }>((resolve, reject) => {
    const request = http.request(
      { hostname: '127.0.0.1', port, method: input.method, path: input.path, headers },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            setCookie: response.headers['set-cookie'] ?? [],
          }),
        )
      },
    )
    request.setTimeout(requestTimeoutMs, () =>
      request.destroy(new Error(`No answer in ${requestTimeoutMs / 1000} s`)),
    )
    request.on('error', reject)
    request.end(body)
  })
}
