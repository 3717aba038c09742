import http from 'node:http'
import type { AddressInfo } from 'node:net'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../logger.ts'
import { BOX_IDENTITY_HEADER, boxIdentityToken } from './box-identity.ts'
import { createEgressProxy } from './egress-proxy.ts'

const key = Buffer.alloc(32, 7)
const boxId = 'c0ffee00-0000-4000-8000-000000000001'
const credential = `${boxId}:${boxIdentityToken(key, boxId)}`
const basic = (text: string) => `Basic ${Buffer.from(text, 'utf8').toString('base64')}`

/** Raw bytes to the proxy, and everything it answers until it closes. */
const exchange = (port: number, bytes: string) =>
  new Promise<string>((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' })
    let answer = ''
    socket.once('connect', () => socket.write(bytes))
    socket.on('data', (data) => {
      answer += data
    })
    socket.once('end', () => resolve(answer))
    socket.once('error', reject)
  })

// The pods' egress proxy (docs/decisions/039-egress-proxy-for-pods.md): one TCP port for every
// box, sprout.internal sent on to Sprout with the credentials the box's proxy URL carries.
describe("the pods' egress proxy", () => {
  const seen: http.IncomingHttpHeaders[] = []
  let sprout: http.Server
  let local: http.Server
  let proxyPort = 0
  let localPort = 0
  let close: () => Promise<void> = async () => {}

  beforeAll(async () => {
    sprout = http.createServer((request, response) => {
      seen.push({ ...request.headers, path: request.url })
      response.end('from Sprout')
    })
    await new Promise<void>((resolve) => sprout.listen(0, '127.0.0.1', resolve))
    local = http.createServer((_request, response) => response.end('a service on the node'))
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve))
    localPort = (local.address() as AddressInfo).port
    const proxy = createEgressProxy({
      policy: 'open',
      registryUrl: 'https://registry.test/',
      logger: silentLogger,
      lookup: async () => ['127.0.0.1'],
    })
    const served = await proxy.listenForPods({
      port: 0,
      host: '127.0.0.1',
      sproutUrl: `http://127.0.0.1:${(sprout.address() as AddressInfo).port}`,
    })
    proxyPort = served.port
    close = served.close
  })
  afterAll(async () => {
    await close()
    sprout.close()
    local.close()
  })

  it("sends a box's plain request to sprout.internal on with its credentials, not the box's own header", async () => {
    seen.length = 0
    const answer = await exchange(
      proxyPort,
      [
        'GET http://sprout.internal/api/token?x=1 HTTP/1.1',
        'Host: sprout.internal',
        `Proxy-Authorization: ${basic(credential)}`,
        `${BOX_IDENTITY_HEADER}: another-box:forged`,
        'Connection: close',
        '',
        '',
      ].join('\r\n'),
    )
    expect(answer).toMatch(/^HTTP\/1.1 200/)
    expect(answer).toContain('from Sprout')
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({
      path: '/api/token?x=1',
      host: 'sprout.internal',
      [BOX_IDENTITY_HEADER]: credential,
    })
    expect(seen[0]?.['proxy-authorization']).toBeUndefined()
  })

  it('does the same inside a CONNECT tunnel to sprout.internal:80', async () => {
    seen.length = 0
    const answer = await exchange(
      proxyPort,
      `CONNECT sprout.internal:80 HTTP/1.1\r\nProxy-Authorization: ${basic(credential)}\r\n\r\n` +
        'GET /api/errors HTTP/1.1\r\nHost: sprout.internal\r\nConnection: close\r\n\r\n',
    )
    expect(answer).toContain('200 Connection Established')
    expect(answer).toContain('from Sprout')
    expect(seen[0]).toMatchObject({ path: '/api/errors', [BOX_IDENTITY_HEADER]: credential })
  })

  it('refuses sprout.internal to a request that names no box, or names one with a NUL', async () => {
    seen.length = 0
    for (const authorization of ['', `Proxy-Authorization: ${basic(`${boxId}\0:x`)}\r\n`]) {
      const answer = await exchange(
        proxyPort,
        `GET http://sprout.internal/ HTTP/1.1\r\nHost: sprout.internal\r\n${authorization}Connection: close\r\n\r\n`,
      )
      expect(answer).toMatch(/^HTTP\/1.1 403/)
    }
    expect(seen).toHaveLength(0)
  })

  it("keeps the local boxes' policy: the node's own services stay out of reach", async () => {
    const answer = await exchange(
      proxyPort,
      `CONNECT 127.0.0.1:${localPort} HTTP/1.1\r\nProxy-Authorization: ${basic(credential)}\r\n\r\n`,
    )
    expect(answer).toMatch(/^HTTP\/1.1 403/)
    expect(answer).not.toContain('a service on the node')
  })
})
