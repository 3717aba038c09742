// The test harness's HAProxy runs deploy/haproxy/haproxy.cfg (docs/operations/several-instances.md)
// in front of two plain HTTP servers: round robin, health checks, draining, retries.
import { execFileSync } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { haproxyExecutable, haproxyTemplatePath, startHaproxy } from './haproxy-process.ts'

const executable = haproxyExecutable()

/** A server that answers its name; like Sprout, 400 to a request without Host. */
async function namedServer(name: string, port = 0) {
  const server = createServer((request, response) => {
    response.statusCode = request.headers.host ? 200 : 400
    response.end(name)
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return server
}

const portOf = (server: Server) => (server.address() as AddressInfo).port

describe.skipIf(!executable)('HAProxy in front of instances (haproxy-process.ts)', () => {
  let a: Server
  let b: Server
  let balancer: Awaited<ReturnType<typeof startHaproxy>>

  beforeAll(async () => {
    a = await namedServer('a')
    b = await namedServer('b')
    balancer = await startHaproxy({
      backends: [
        { name: 'sprout-a', port: portOf(a) },
        { name: 'sprout-b', port: portOf(b) },
      ],
    })
  })

  afterAll(async () => {
    await balancer?.stop()
    for (const server of [a, b]) server?.closeAllConnections()
    a?.close()
    b?.close()
  })

  it('accepts the repository file as it is', () => {
    expect(() =>
      execFileSync(executable ?? 'haproxy', ['-c', '-f', haproxyTemplatePath], { stdio: 'pipe' }),
    ).not.toThrow()
  })

  it('sends requests to the instances in turn, and logs which served each', async () => {
    await balancer.waitForHealthy(['sprout-a', 'sprout-b'])
    const answers: string[] = []
    for (let index = 0; index < 6; index++) {
      answers.push(await (await fetch(`${balancer.url}/`)).text())
    }
    expect(answers.filter((answer) => answer === 'a')).toHaveLength(3)
    expect(answers.filter((answer) => answer === 'b')).toHaveLength(3)
    await expect
      .poll(() => balancer.servedBy(), { timeout: 10_000 })
      .toMatchObject({
        'sprout-a': expect.any(Number),
        'sprout-b': expect.any(Number),
      })
  })

  it('sends nothing to a drained instance, and everything again once it is ready', async () => {
    await balancer.setState('sprout-b', 'drain')
    await balancer.waitForStatus({ 'sprout-b': 'DRAIN' })
    for (let index = 0; index < 4; index++) {
      expect(await (await fetch(`${balancer.url}/`)).text()).toBe('a')
    }
    await balancer.setState('sprout-b', 'ready')
    await balancer.waitForStatus({ 'sprout-b': 'UP' })
  })

  it('retries a request on another instance when one refuses connections', async () => {
    const port = portOf(b)
    b.closeAllConnections()
    await new Promise<void>((resolve) => b.close(() => resolve()))
    // Before the health checks notice: every request still succeeds, through sprout-a.
    for (let index = 0; index < 4; index++) {
      const response = await fetch(`${balancer.url}/`)
      expect(`${response.status} ${await response.text()}`).toBe('200 a')
    }
    await balancer.waitForStatus({ 'sprout-b': 'DOWN' })
    b = await namedServer('b', port)
    await balancer.waitForStatus({ 'sprout-b': 'UP' })
    await balancer.waitForHealthy(['sprout-b'])
  })
})
