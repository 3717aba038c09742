// The floor of any proxy in Node: a bare node:http proxy with a keep-alive agent in front of a
// dev server or an app's server, measured in the same rounds as Sprout's proxies (the second
// HTTP hop they add, docs/performance.md "API and proxies (second pass)").
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { targetConnection } from '../../packages/devbox/src/dev-server-request.ts'
import type { DevServerTarget } from '../../packages/devbox/src/devbox-driver.ts'

export async function startBareProxy(
  target: DevServerTarget,
  options: { keepHost?: boolean } = {},
) {
  const agent = new http.Agent({ keepAlive: true })
  const connection = targetConnection(target)
  const server = http.createServer((request, response) => {
    const upstream = http.request(
      {
        ...connection,
        agent,
        method: request.method,
        path: request.url,
        headers: options.keepHost ? request.headers : { ...request.headers, host: 'localhost' },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      },
    )
    upstream.on('error', () => response.destroy())
    request.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.closeAllConnections()
      server.close()
      agent.destroy()
    },
  }
}
