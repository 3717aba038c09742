import http from 'node:http'

export type RawResponse = {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** The status, headers and text of a whole answer to http.request. */
export function readRawResponse(response: http.IncomingMessage): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    response.on('data', (chunk: Buffer) => chunks.push(chunk))
    response.on('error', reject)
    response.on('end', () =>
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }),
    )
  })
}

/** A request to 127.0.0.1 with any Host header (fetch cannot set Host, and *.localhost may not resolve). */
export function rawRequest(
  port: number,
  host: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { hostname: '127.0.0.1', port, path, method, headers: { ...headers, host } },
      (response) => resolve(readRawResponse(response)),
    )
    request.on('error', reject)
    request.end()
  })
}

/** The `name=value` of a Set-Cookie header, for sending it back. */
export function cookieFrom(response: RawResponse, name: string): string | undefined {
  const header = response.headers['set-cookie'] ?? []
  const setCookie = Array.isArray(header) ? header : [header]
  const found = setCookie.find((cookie) => cookie.startsWith(`${name}=`))
  return found?.split(';')[0]
}

/** A request with a body to 127.0.0.1 under any Host (declared length, or chunked). */
export function sendRaw(
  port: number,
  host: string,
  requestPath: string,
  options: { method: string; body?: string; chunked?: boolean; headers?: Record<string, string> },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        hostname: '127.0.0.1',
        port,
        path: requestPath,
        method: options.method,
        headers: {
          ...options.headers,
          host,
          ...(options.chunked || options.body === undefined
            ? {}
            : { 'content-length': Buffer.byteLength(options.body) }),
        },
      },
      (response) => resolve(readRawResponse(response)),
    )
    request.on('error', reject)
    if (options.chunked && options.body) {
      // Two writes without a declared length: the limit must hold for a streamed body too.
      const half = Math.floor(options.body.length / 2)
      request.write(options.body.slice(0, half))
      request.end(options.body.slice(half))
    } else {
      request.end(options.body)
    }
  })
}
