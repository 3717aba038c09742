// Long file: one suite attacks the egress proxy from every side (policies, names, addresses, the
// host's own interfaces, CONNECT and plain HTTP), each case a few lines on one shared proxy set-up.
import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../logger.ts'
import { createEgressProxy } from './egress-proxy.ts'
import { createHostAddresses } from './host-addresses.ts'

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

  it('lets the server’s own registry through on a private or documentation address (a mirror), never on loopback or this machine', async () => {
    const addresses: Record<string, string[]> = {
      'mirror.test': ['203.0.113.80'],
      'docs.test': ['203.0.113.80'],
      'loop.test': ['127.0.0.1'],
    }
    const proxyFor = (registryUrl: string, own: string[] = []) =>
      createEgressProxy({
        policy: 'open',
        registryUrl,
        logger: silentLogger,
        lookup: async (hostname) => addresses[hostname] ?? ['8.8.8.8'],
        hostAddresses: createHostAddresses({ readAddresses: () => own }),
      })
    const proxy = proxyFor('https://mirror.test/')
    expect(await proxy.decide('mirror.test', 443)).toMatchObject({
      allowed: true,
      address: '203.0.113.80',
    })
    // Only by its name and its ports: the same address under another name stays refused.
    expect(await proxy.decide('mirror.test', 22)).toMatchObject({ allowed: false })
    expect(await proxy.decide('docs.test', 443)).toMatchObject({ allowed: false })
    expect(await proxy.decide('203.0.113.80', 443)).toMatchObject({ allowed: false })
    expect(await proxyFor('https://loop.test/').decide('loop.test', 443)).toMatchObject({
      allowed: false,
    })
    expect(
      await proxyFor('https://mirror.test/', ['203.0.113.80']).decide('mirror.test', 443),
    ).toMatchObject({ allowed: false, reason: expect.stringContaining('this machine') })
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

  it('refuses every address of this machine’s interfaces, even in a public range and however spelled', async () => {
    const proxy = createEgressProxy({
      policy: 'open',
      registryUrl: 'https://registry.npmjs.org/',
      logger: silentLogger,
      lookup: async (hostname) => (hostname === 'own.test' ? ['11.22.33.44'] : ['8.8.8.8']),
      hostAddresses: createHostAddresses({ readAddresses: () => ['11.22.33.44'] }),
    })
    for (const target of [
      '11.22.33.44',
      'own.test',
      '[::ffff:11.22.33.44]',
      '[64:ff9b::b16:212c]',
    ]) {
      expect(await proxy.decide(target, 443), target).toMatchObject({
        allowed: false,
        reason: expect.stringContaining('an address of this machine'),
      })
    }
    expect(await proxy.decide('public.test', 443)).toMatchObject({ allowed: true })
  })

  it('refuses an address the moment it becomes this machine’s, not at the next reading (issue 29)', async () => {
    let own = ['11.22.33.44']
    const proxy = createEgressProxy({
      policy: 'open',
      registryUrl: 'https://registry.npmjs.org/',
      logger: silentLogger,
      lookup: async () => ['55.66.77.88'],
      // Trusted for an hour between connections: only a reading at connect time can see it.
      hostAddresses: createHostAddresses({ readAddresses: () => own, maxAgeMs: 3_600_000 }),
    })
    expect(await proxy.decide('new.test', 443)).toMatchObject({ allowed: true })
    own = ['11.22.33.44', '55.66.77.88']
    for (const target of ['new.test', '55.66.77.88']) {
      expect(await proxy.decide(target, 443), target).toMatchObject({
        allowed: false,
        reason: expect.stringContaining('an address of this machine'),
      })
    }
  })

  it('refuses the real interfaces’ addresses, loopback or not', async () => {
    const proxy = createEgressProxy({
      policy: 'open',
      registryUrl: 'https://registry.npmjs.org/',
      logger: silentLogger,
    })
    const own = Object.values(os.networkInterfaces()).flatMap((entries) => entries ?? [])
    expect(own.some((entry) => !entry.internal)).toBe(true)
    for (const { address } of own) {
      expect(await proxy.decide(address, 443), address).toMatchObject({ allowed: false })
    }
  })

  /** Writes `text` to the proxy's socket and collects what comes back until it closes. */
  const exchange = (socketPath: string, text: string) =>
    new Promise<string>((resolve) => {
      const socket = net.connect({ path: socketPath })
      let answer = ''
      socket.once('connect', () => socket.write(text))
      socket.on('data', (data) => {
        answer += data
      })
      socket.once('close', () => resolve(answer))
      socket.once('error', () => socket.destroy())
    })

  it('contains a handler that throws or rejects to its own request: logged, answered 500, proxy still serving', async () => {
    const errors: string[] = []
    let calls = 0
    const proxy = createEgressProxy({
      policy: 'none',
      registryUrl: 'https://registry.npmjs.org/',
      logger: { ...silentLogger, error: (message) => errors.push(message) },
      internal: (_boxId, _request, response) => {
        calls += 1
        if (calls === 1) throw new Error('handler bug')
        if (calls === 2) return Promise.reject(new Error('async handler bug'))
        response.writeHead(200, { connection: 'close' })
        response.end('fine')
      },
    })
    const socketPath = path.join(folder, 'guarded.sock')
    const close = await proxy.listen(socketPath, 'box-guarded')
    const plainRequest =
      'GET http://sprout.internal/ HTTP/1.1\r\nHost: sprout.internal\r\nConnection: close\r\n\r\n'
    const tunnelled = `CONNECT sprout.internal:80 HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\nHost: sprout.internal\r\nConnection: close\r\n\r\n`
    try {
      expect(await exchange(socketPath, plainRequest)).toMatch(/^HTTP\/1\.1 500 /)
      const rejected = await exchange(socketPath, tunnelled)
      expect(rejected).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 500 /)
      expect(errors).toEqual(['Egress proxy handler failed', 'Egress proxy handler failed'])
      expect(await exchange(socketPath, 'NOT HTTP AT ALL\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /)
      expect(await exchange(socketPath, plainRequest)).toMatch(/^HTTP\/1\.1 200 [\s\S]*fine/)
    } finally {
      await close()
    }
  })

  it('survives a box that hangs up while its CONNECT is being decided', async () => {
    let lookupStarted: () => void = () => {}
    const started = new Promise<void>((resolve) => {
      lookupStarted = resolve
    })
    let answerLookup: (addresses: string[]) => void = () => {}
    const proxy = createEgressProxy({
      policy: 'open',
      registryUrl: 'https://registry.npmjs.org/',
      logger: silentLogger,
      lookup: () => {
        lookupStarted()
        return new Promise((resolve) => {
          answerLookup = resolve
        })
      },
    })
    const socketPath = path.join(folder, 'hangup.sock')
    const close = await proxy.listen(socketPath, 'box-hangup')
    try {
      const socket = net.connect({ path: socketPath }, () => {
        socket.write('CONNECT slow.test:443 HTTP/1.1\r\n\r\n')
      })
      await started
      await new Promise((resolve) => {
        socket.once('close', resolve)
        socket.destroy()
      })
      answerLookup(['93.184.215.14'])
      expect(await connectThrough(socketPath, '127.0.0.1:1')).toMatch(/^HTTP\/1\.1 403 /)
    } finally {
      await close()
    }
  })
})
