import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * The real egress proxy in a test-owned namespace ("the machine": 198.51.100.1, public-looking
 * 11.22.33.44, carrierless 11.22.33.66) veth-wired to a "remote" (198.51.100.7, 11.22.33.55);
 * 11.22.33.44 tests the own-address check apart from the ranges. The tests' namespace is untouched.
 */
function namespacesMissing(): string | undefined {
  if (process.getuid?.() !== 0) return 'network namespaces need root'
  const probe = `sprout-egress-probe-${process.pid}`
  try {
    execFileSync('ip', ['netns', 'add', probe], { stdio: 'ignore' })
    execFileSync(
      'ip',
      ['-n', probe, 'link', 'add', 'probe0', 'type', 'veth', 'peer', 'name', 'probe1'],
      {
        stdio: 'ignore',
      },
    )
    return undefined
  } catch {
    return '`ip` (iproute2) is missing or cannot create network namespaces and veth pairs here'
  } finally {
    deleteNamespace(probe)
  }
}

function deleteNamespace(namespace: string) {
  try {
    execFileSync('ip', ['netns', 'delete', namespace], { stdio: 'ignore' })
  } catch {
    // Never created, or already gone.
  }
}

const missing = namespacesMissing()
const machine = `sprout-egress-machine-${process.pid}`
const remote = `sprout-egress-remote-${process.pid}`
const servicePort = 9999

const serviceSource = `
require('node:net').createServer((socket) => {
  console.log('connection ' + socket.localAddress)
  socket.on('error', () => socket.destroy())
  socket.end('hello from ' + socket.localAddress + '\\n')
}).listen(${servicePort}, '0.0.0.0', () => console.log('listening'))
`

const proxySource = `
const [moduleUrl, socketPath] = process.argv.slice(1)
const { createEgressProxy } = await import(moduleUrl)
const quiet = () => {}
const proxy = createEgressProxy({
  policy: 'open',
  registryUrl: 'https://registry.npmjs.org/',
  logger: { info: quiet, warn: quiet, error: (message) => console.error(message) },
})
await proxy.listen(socketPath, 'box-namespace')
console.log('ready')
`

type Started = { child: ChildProcess; lines: string[]; waitFor: (line: string) => Promise<void> }

/** Starts `node` inside a namespace; `waitFor` resolves once it printed that line. */
function startInNamespace(namespace: string, nodeArguments: string[]): Started {
  const child = spawn('ip', ['netns', 'exec', namespace, process.execPath, ...nodeArguments], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines: string[] = []
  const waiters: (() => void)[] = []
  let pending = ''
  child.stdout?.on('data', (data: Buffer) => {
    pending += data.toString()
    const complete = pending.split('\n')
    pending = complete.pop() ?? ''
    lines.push(...complete)
    for (const waiter of waiters) waiter()
  })
  const waitFor = (line: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (lines.includes(line)) resolve()
        else if (child.exitCode !== null) reject(new Error(`exited before printing ${line}`))
      }
      waiters.push(check)
      child.once('exit', check)
      check()
    })
  return { child, lines, waitFor }
}

/** Sends `first` on the proxy's socket and collects the answer until the proxy closes it. */
function exchange(socketPath: string, first: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ path: socketPath })
    let answer = ''
    socket.once('connect', () => socket.write(first))
    socket.on('data', (data) => {
      answer += data
    })
    socket.once('close', () => resolve(answer))
    socket.once('error', reject)
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${first.trim()}`)))
  })
}

const inNamespace = (namespace: string, ...command: string[]) =>
  execFileSync('ip', ['-n', namespace, ...command], { stdio: 'pipe', timeout: 10_000 })

describe.skipIf(missing !== undefined)(
  `egress proxy in network namespaces${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let folder: string
    let socketPath: string
    const started: Started[] = []
    let remoteService: Started
    let machineService: Started

    beforeAll(async () => {
      folder = await mkdtemp(path.join(os.tmpdir(), 'sprout-egress-namespace-'))
      socketPath = path.join(folder, 'egress.sock')
      execFileSync('ip', ['netns', 'add', machine])
      execFileSync('ip', ['netns', 'add', remote])
      inNamespace(machine, 'link', 'set', 'lo', 'up')
      inNamespace(remote, 'link', 'set', 'lo', 'up')
      inNamespace(machine, 'link', 'add', 'machine0', 'type', 'veth', 'peer', 'name', 'remote0')
      inNamespace(machine, 'link', 'set', 'remote0', 'netns', remote)
      for (const address of ['198.51.100.1/24', '11.22.33.44/24']) {
        inNamespace(machine, 'address', 'add', address, 'dev', 'machine0')
      }
      for (const address of ['198.51.100.7/24', '11.22.33.55/24']) {
        inNamespace(remote, 'address', 'add', address, 'dev', 'remote0')
      }
      inNamespace(machine, 'link', 'set', 'machine0', 'up')
      // Up without a carrier (its peer stays down): os.networkInterfaces() does not list it.
      inNamespace(machine, 'link', 'add', 'lonely0', 'type', 'veth', 'peer', 'name', 'lonely1')
      inNamespace(machine, 'address', 'add', '11.22.33.66/32', 'dev', 'lonely0')
      inNamespace(machine, 'link', 'set', 'lonely0', 'up')
      inNamespace(remote, 'link', 'set', 'remote0', 'up')

      remoteService = startInNamespace(remote, ['-e', serviceSource])
      machineService = startInNamespace(machine, ['-e', serviceSource])
      const proxyUrl = pathToFileURL(path.join(import.meta.dirname, 'egress-proxy.ts')).href
      const proxy = startInNamespace(machine, [
        '--input-type=module',
        '-e',
        proxySource,
        proxyUrl,
        socketPath,
      ])
      started.push(remoteService, machineService, proxy)
      await Promise.all(
        started.map(({ waitFor }, index) => waitFor(index < 2 ? 'listening' : 'ready')),
      )
    })

    afterAll(async () => {
      await Promise.all(
        started.map(
          ({ child }) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve()
              child.once('exit', () => resolve())
              child.kill()
            }),
        ),
      )
      deleteNamespace(machine)
      deleteNamespace(remote)
      if (folder) await rm(folder, { recursive: true, force: true })
    })

    it('refuses a service on 198.51.100.7 with 403, though the machine reaches it directly', async () => {
      const direct = startInNamespace(machine, [
        '-e',
        `require('node:net').connect(${servicePort}, '198.51.100.7').on('data', (data) => process.stdout.write(data))`,
      ])
      started.push(direct)
      await direct.waitFor('hello from 198.51.100.7')
      await remoteService.waitFor('connection 198.51.100.7')

      const tunnel = await exchange(
        socketPath,
        `CONNECT 198.51.100.7:${servicePort} HTTP/1.1\r\n\r\n`,
      )
      expect(tunnel).toMatch(/^HTTP\/1\.1 403 Forbidden[\s\S]*local or private address/)
      const plain = await exchange(
        socketPath,
        `GET http://198.51.100.7:${servicePort}/ HTTP/1.1\r\nHost: 198.51.100.7\r\nConnection: close\r\n\r\n`,
      )
      expect(plain).toMatch(/^HTTP\/1\.1 403 /)
      expect(remoteService.lines.filter((line) => line === 'connection 198.51.100.7')).toHaveLength(
        1,
      )
    })

    it('refuses the machine’s own public-looking address and reaches another public one', async () => {
      for (const target of [
        `11.22.33.44:${servicePort}`,
        `[::ffff:11.22.33.44]:${servicePort}`,
        `11.22.33.66:${servicePort}`,
      ]) {
        const answer = await exchange(socketPath, `CONNECT ${target} HTTP/1.1\r\n\r\n`)
        expect(answer, target).toMatch(/^HTTP\/1\.1 403 Forbidden[\s\S]*an address of this machine/)
      }
      const reached = await exchange(
        socketPath,
        `CONNECT 11.22.33.55:${servicePort} HTTP/1.1\r\n\r\n`,
      )
      expect(reached).toBe('HTTP/1.1 200 Connection Established\r\n\r\nhello from 11.22.33.55\n')
      expect(machineService.lines.filter((line) => line.startsWith('connection'))).toEqual([])
    })
  },
)
