import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../logger.ts'
import { createEgressProxy } from './egress-proxy.ts'
import { isForbiddenAddress } from './forbidden-addresses.ts'

describe('forbidden addresses', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::1',
    'localhost',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true)
  })

  it.each(['104.16.0.1', '8.8.8.8', '172.32.0.1', '2606:4700::1111'])('allows %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false)
  })
})

describe('egress proxy', () => {
  let folder: string
  let upstream: http.Server
  let upstreamPort: number

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'sprout-egress-'))
    upstream = http.createServer((_request, response) => response.end('local service'))
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    upstreamPort = (upstream.address() as AddressInfo).port
  })
  afterAll(async () => {
    upstream.close()
    await rm(folder, { recursive: true, force: true })
  })

  /** A name that resolves to a public address first and to loopback the next time (rebinding). */
  const rebindingLookup = () => {
    let calls = 0
    return async (hostname: string) => {
      if (hostname === 'rebind.test') return [calls++ === 0 ? '93.184.215.14' : '127.0.0.1']
      if (hostname === 'mixed.test') return ['93.184.215.14', '127.0.0.1']
      if (hostname === 'registry.test') return ['127.0.0.1']
      throw new Error('ENOTFOUND')
    }
  }

  const connectThrough = async (socketPath: string, authority: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect({ path: socketPath })
      let answer = ''
      socket.once('connect', () => socket.write(`CONNECT ${authority} HTTP/1.1\r\n\r\n`))
      socket.on('data', (data) => {
        answer += data
      })
      socket.once('end', () => resolve(answer))
      socket.once('error', reject)
    })

  it('decides once per connection on the resolved address: rebinding and mixed answers are refused', async () => {
    const proxy = createEgressProxy({
      policy: 'open',
      registryUrl: 'https://registry.test/',
      logger: silentLogger,
      lookup: rebindingLookup(),
    })
    expect(await proxy.decide('rebind.test', 443)).toEqual({
      allowed: true,
      address: '93.184.215.14',
      port: 443,
    })
    expect(await proxy.decide('rebind.test', 443)).toMatchObject({ allowed: false })
    expect(await proxy.decide('mixed.test', 443)).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('127.0.0.1'),
    })
    expect(await proxy.decide('nowhere.test', 443)).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('does not resolve'),
    })
    expect(await proxy.decide('[::1]', 443)).toMatchObject({ allowed: false })
    expect(await proxy.decide('rebind.test', 0)).toMatchObject({ allowed: false })
  })

  it('applies DEVBOX_EGRESS: registry only lets the registry through, none nothing', async () => {
    const registryOnly = createEgressProxy({
      policy: 'registry',
      registryUrl: 'https://registry.npmjs.org/',
      logger: silentLogger,
      lookup: async () => ['104.16.0.1'],
    })
    expect(await registryOnly.decide('registry.npmjs.org', 443)).toMatchObject({ allowed: true })
    expect(await registryOnly.decide('registry.npmjs.org', 22)).toMatchObject({ allowed: false })
    expect(await registryOnly.decide('github.com', 443)).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('only the npm registry'),
    })
    const none = createEgressProxy({
      policy: 'none',
      registryUrl: 'https://registry.npmjs.org/',
      logger: silentLogger,
      lookup: async () => ['104.16.0.1'],
    })
    expect(await none.decide('registry.npmjs.org', 443)).toMatchObject({ allowed: false })
  })

  it('answers CONNECT and plain HTTP to local services with 403 and a reason, reaching nothing', async () => {
    let reached = 0
    upstream.on('request', () => {
      reached += 1
    })
    const proxy = createEgressProxy({
      policy: 'open',
      registryUrl: 'https://registry.npmjs.org/',
      logger: silentLogger,
    })
    const socketPath = path.join(folder, 'egress.sock')
    const close = await proxy.listen(socketPath, 'box-test')
    try {
      const connect = await connectThrough(socketPath, `127.0.0.1:${upstreamPort}`)
      expect(connect).toMatch(/^HTTP\/1\.1 403 Forbidden/)
      expect(connect).toContain('local or private address')
      const plain = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(
          { socketPath, path: `http://localhost:${upstreamPort}/`, headers: { host: 'localhost' } },
          (response) => {
            let body = ''
            response.on('data', (chunk) => {
              body += chunk
            })
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
          },
        )
        request.on('error', reject)
        request.end()
      })
      expect(plain.status).toBe(403)
      expect(plain.body).toContain('refused localhost')
      expect(await connectThrough(socketPath, 'no-port')).toMatch(/^HTTP\/1\.1 400/)
      expect(reached).toBe(0)
    } finally {
      await close()
    }
  })
})
