// The tunnel from a non-owner to an owner's box dev server (docs/decisions/042-dev-server-tunnel.md):
// real sockets end to end, a plain HTTP server standing for the dev server.
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { proxyHttp } from '../devboxes/preview-host/proxy.ts'
import { readRawResponse } from '../testing/raw-request.ts'
import { createTunnelEndpoint, TUNNEL_PROTOCOL, tunnelPath } from './dev-server-tunnel.ts'
import { RELAY_HEADER, signRelay } from './relay-signature.ts'
import { createTunnelAgents, TunnelRefusedError } from './tunnel-agents.ts'

const key = randomBytes(32)
const heldId = '11111111-2222-3333-4444-555555555555'
const elsewhereId = '66666666-7777-8888-9999-000000000000'
const stoppedId = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee'

let devServer: http.Server
let owner: http.Server
let ownerUrl = ''
const seenByDevServer: string[] = []
const touched: string[] = []
let upgrades = 0

const listen = (server: http.Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  )

beforeAll(async () => {
  devServer = http.createServer((request, response) => {
    seenByDevServer.push(`${request.method} ${request.url} host=${request.headers.host}`)
    response.writeHead(200, { 'content-type': 'text/javascript' })
    response.end(`export default ${JSON.stringify(request.url)}`)
  })
  const devServerPort = await listen(devServer)
  const endpoint = createTunnelEndpoint({
    key,
    leases: { holds: (applicationId) => applicationId !== elsewhereId },
    devboxes: () => ({
      previewTarget: async (applicationId) =>
        applicationId === stoppedId ? undefined : { host: '127.0.0.1', port: devServerPort },
      touch: (applicationId) => void touched.push(applicationId),
    }),
  })
  owner = http.createServer((_request, response) => response.end('not a tunnel'))
  owner.on('upgrade', (request, socket, head) => {
    upgrades += 1
    void endpoint(request, socket, head)
  })
  ownerUrl = `http://127.0.0.1:${await listen(owner)}`
})

afterAll(async () => {
  owner.closeAllConnections()
  devServer.closeAllConnections()
  await new Promise((resolve) => owner.close(resolve))
  await new Promise((resolve) => devServer.close(resolve))
})

/** A GET through an agent, as the preview proxy sends one. */
const through = (agent: http.Agent, path: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(
      { agent, host: 'localhost', port: 80, path, headers: { host: 'localhost' } },
      (response) => resolve(readRawResponse(response)),
    )
    request.on('error', reject)
    request.end()
  })

/** The raw answer to an upgrade written by hand, and whatever followed it. */
const rawUpgrade = (lines: string[], after = '') =>
  new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(new URL(ownerUrl).port), '127.0.0.1')
    let text = ''
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1')
    })
    socket.on('error', reject)
    socket.on('close', () => resolve(text))
    socket.write(`${lines.join('\r\n')}\r\n\r\n${after}`)
    setTimeout(() => socket.end(), 500).unref()
  })

const signedFor = (path: string, now = Date.now()) =>
  signRelay(key, { method: 'GET', path, instanceId: 'b', client: '' }, now)

describe('dev server tunnel', () => {
  it('carries module requests to the dev server over one kept-alive tunnel, each a use', async () => {
    const agents = createTunnelAgents({ key, instanceId: 'b' })
    const agent = agents.agentFor(ownerUrl, heldId)
    const before = upgrades
    for (const module of ['/src/main.tsx', '/src/App.tsx', '/@vite/client']) {
      const answer = await through(agent, module)
      expect(answer).toMatchObject({
        status: 200,
        body: `export default ${JSON.stringify(module)}`,
      })
    }
    expect(upgrades - before).toBe(1)
    expect(seenByDevServer.at(-1)).toBe('GET /@vite/client host=localhost')
    expect(touched).toContain(heldId)
    expect(agents.agentFor(ownerUrl, heldId)).toBe(agent)
    // Another owner (the box moved): a new agent, so new tunnels.
    expect(agents.agentFor(`${ownerUrl}/`, heldId)).not.toBe(agent)
    agents.close()
  })

  it('refuses an unsigned, forged, stale, replayed or misdirected tunnel, piping nothing', async () => {
    const path = tunnelPath(heldId)
    const upgrade = (header: string | undefined, pathname = path) => [
      `GET ${pathname} HTTP/1.1`,
      'host: owner',
      'connection: Upgrade',
      `upgrade: ${TUNNEL_PROTOCOL}`,
      ...(header === undefined ? [] : [`${RELAY_HEADER}: ${header}`]),
    ]
    // A request smuggled after the head must never reach the dev server.
    const smuggled = 'GET /smuggled HTTP/1.1\r\nhost: localhost\r\n\r\n'
    const seenBefore = seenByDevServer.length
    const forged = signRelay(randomBytes(32), {
      method: 'GET',
      path,
      instanceId: 'b',
      client: '',
    })
    for (const header of [undefined, 'x.1.2.3', forged, signedFor(path, Date.now() - 31_000)]) {
      expect(await rawUpgrade(upgrade(header), smuggled)).toMatch(/^HTTP\/1\.1 403 /)
    }
    // Signed for another application's tunnel.
    const other = upgrade(signedFor(tunnelPath(stoppedId)))
    expect(await rawUpgrade(other, smuggled)).toMatch(/^HTTP\/1\.1 403 /)
    // Not an application id (a path out), and a NUL in it.
    for (const pathname of [`${path}/../x`, '/__sprout/dev-server/..%2f..%2fetc', `${path}%00`]) {
      expect(await rawUpgrade(upgrade(signedFor(pathname), pathname))).toMatch(/^HTTP\/1\.1 403 /)
    }
    const valid = signedFor(path)
    expect(await rawUpgrade(upgrade(valid), smuggled)).toMatch(/^HTTP\/1\.1 101 /)
    expect(await rawUpgrade(upgrade(valid), smuggled)).toMatch(/^HTTP\/1\.1 403 /)
    expect(seenByDevServer.slice(seenBefore)).toEqual(['GET /smuggled host=localhost'])
    // A box this instance does not hold, or whose dev server is not running.
    const misdirected = tunnelPath(elsewhereId)
    expect(await rawUpgrade(upgrade(signedFor(misdirected), misdirected))).toMatch(
      /^HTTP\/1\.1 421 /,
    )
    const stopped = tunnelPath(stoppedId)
    expect(await rawUpgrade(upgrade(signedFor(stopped), stopped))).toMatch(/^HTTP\/1\.1 503 /)
  })

  it('tells a refusal by its status, and the preview proxy then answers the long way', async () => {
    const agents = createTunnelAgents({ key, instanceId: 'b' })
    const error = await through(agents.agentFor(ownerUrl, elsewhereId), '/src/main.tsx').catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(TunnelRefusedError)
    expect((error as TunnelRefusedError).status).toBe(421)

    // The non-owner's proxy: a refused tunnel hands the request over before answering anything.
    const front = http.createServer((request, response) => {
      proxyHttp(
        request,
        response,
        { host: 'localhost', port: 80 },
        {
          agent: agents.agentFor(ownerUrl, stoppedId),
          otherwise: () => {
            response.writeHead(299)
            response.end('the long way')
          },
        },
      )
    })
    const frontPort = await listen(front)
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) =>
      http
        .get({ host: '127.0.0.1', port: frontPort, path: '/src/App.tsx' }, (response) =>
          resolve(readRawResponse(response)),
        )
        .on('error', reject),
    )
    expect(answer).toMatchObject({ status: 299, body: 'the long way' })
    front.closeAllConnections()
    await new Promise((resolve) => front.close(resolve))
    agents.close()
  })

  it('gives up on an owner whose answer to the upgrade never ends its head', async () => {
    const endless = net.createServer((socket) => {
      socket.on('error', () => socket.destroy())
      socket.write('HTTP/1.1 101 Switching Protocols\r\n')
      const timer = setInterval(() => socket.write(`x-filler: ${'a'.repeat(1000)}\r\n`), 1)
      socket.on('close', () => clearInterval(timer))
    })
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve))
    const agents = createTunnelAgents({ key, instanceId: 'b' })
    const endlessUrl = `http://127.0.0.1:${(endless.address() as AddressInfo).port}`
    const error = await through(agents.agentFor(endlessUrl, heldId), '/').catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(TunnelRefusedError)
    expect((error as TunnelRefusedError).status).toBe(502)
    agents.close()
    await new Promise((resolve) => endless.close(resolve))
  })
})
