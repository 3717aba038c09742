// Long file: every case shares one driver and one deployed app, each step building on the last.
// Production servers in the real sandbox: back-end deploys, the switch under load, failed starts,
// confinement, scale to zero, crashes, leaks (docs/architecture/devbox.md "Production servers").
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDeploy, currentDeployId, DeployBuildError } from '../deploy.ts'
import { requestDevServer, targetConnection } from '../dev-server-request.ts'
import type { DevServerTarget } from '../devbox-driver.ts'
import type { LocalDevbox, LocalDriver } from '../drivers/local/local-driver.ts'
import { silentLogger } from '../logger.ts'
import { resolveDeployFile } from '../resolve-deploy-file.ts'
import {
  appServerProcesses,
  createFullStackFixtureTemplates,
} from '../testing/app-server-fixture.ts'
import { createFakeTemplates, createTestDriver, waitFor } from '../testing/devbox-support.ts'
import { type AppServerManager, createAppServerManager } from './app-server-manager.ts'

const appId = 'full-stack-app'
let baseDirectory: string
let deploysDir: string
let driver: LocalDriver
let box: LocalDevbox
let manager: AppServerManager

const createManager = (options: { idleMs?: number; healthTimeoutMs?: number } = {}) =>
  createAppServerManager({
    deploysDir,
    startAppServer: driver.startAppServer,
    idleMs: options.idleMs ?? 60_000,
    idleCheckMs: 50,
    healthTimeoutMs: options.healthTimeoutMs ?? 20_000,
    logger: silentLogger,
  })

const deploy = (appServers: AppServerManager = manager, id = appId, from = box) =>
  buildDeploy({ box: from, deploysDir, appId: id, timeoutSeconds: 60, appServers })

/** One request to the app's server the way the apps host makes it: lease, request, release. */
async function api(
  requestPath: string,
  appServers: AppServerManager = manager,
  id = appId,
): Promise<{ status: number; body: string }> {
  const lease = await appServers.acquire(id)
  if (!lease) return { status: 404, body: 'no server' }
  try {
    return await requestDevServer(lease.target, requestPath, { timeoutMs: 10_000 })
  } finally {
    lease.release()
  }
}

const serverProcesses = () => appServerProcesses(appId)

beforeAll(async () => {
  baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-app-servers-'))
  deploysDir = path.join(baseDirectory, 'deploys')
  const templates = path.join(baseDirectory, 'templates')
  await createFakeTemplates(templates)
  await createFullStackFixtureTemplates(templates)
  driver = createTestDriver({
    rootDir: path.join(baseDirectory, 'root'),
    templatesDir: templates,
    // Small enough for the leak case to reach it quickly.
    limits: { memoryMb: 256 },
  })
  box = await driver.provision('fullstack')
  manager = createManager()
}, 60_000)

afterAll(async () => {
  await manager.close()
  await driver.shutdown()
  await rm(baseDirectory, { recursive: true, force: true })
})

describe('production servers', { timeout: 120_000 }, () => {
  it('deploys client and server: static files from client/, /api from the server, never server/', async () => {
    await deploy()
    const served = async (urlPath: string) => {
      const file = await resolveDeployFile(deploysDir, appId, urlPath)
      return file === undefined ? undefined : readFile(file, 'utf8')
    }
    expect(await served('/')).toBe('<!doctype html><title>first version</title>')
    expect(await served('/assets/app.js')).toContain('client')
    expect(await served('/some/route')).toContain('first version')
    for (const attempt of [
      '/server/index.js',
      '/../server/index.js',
      '/%2e%2e/server/index.js',
      '/client/../server/index.js',
      '/..%2fserver%2findex.js',
    ]) {
      expect(await served(attempt), attempt).toBeUndefined()
    }
    const version = await api('/api/version')
    expect(version.status).toBe(200)
    expect(JSON.parse(version.body).version).toBe('first version')
    expect(manager.status(appId).state).toBe('running')
  })

  it('confines the server like a dev box: its own uid and cgroup, DATABASE_URL in its data folder', async () => {
    const processes = serverProcesses()
    expect(processes.length).toBeGreaterThan(0)
    if (process.getuid?.() === 0) {
      expect(driver.enforcement.user).toMatch(/^a uid of its own per box \(61000–64999\)/)
      // Found by its cgroup: it runs inside the instance's limits, as its app's own uid.
      const uids = new Set(processes.map((found) => found.uid))
      expect(uids.size).toBe(1)
      expect([...uids][0]).toBeGreaterThanOrEqual(61000)
      expect([...uids][0]).toBeLessThanOrEqual(64999)
      const memoryLimit = `/sys/fs/cgroup/memory/sprout/${manager.status(appId).instanceId}/memory.limit_in_bytes`
      if (existsSync(memoryLimit)) {
        expect(Number(readFileSync(memoryLimit, 'utf8'))).toBe(driver.limits.memoryMb * 1024 * 1024)
      }
    }
    expect((await api('/api/notes')).body).toBe('{"notes":[]}')
    if (driver.enforcement.network.startsWith('own namespace')) {
      // Sprout's own port (and anything else on the host's loopback) is out of reach.
      const host = net.createServer((socket) => socket.destroy())
      await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
      const port = (host.address() as net.AddressInfo).port
      const reach = await api(`/api/reach?port=${port}`)
      host.close()
      expect(JSON.parse(reach.body)).toEqual({ reached: false })
      // …while its own port inside its namespace is (the probe itself works).
      const own = await api('/api/reach?port=5173')
      expect(JSON.parse(own.body)).toEqual({ reached: true })
    }
    if (driver.sandboxed) {
      expect(JSON.parse((await api('/api/tamper')).body)).toEqual({ written: false })
    }
  })

  it('switches to a new deploy under a steady stream of requests without failing one', async () => {
    const before = manager.status(appId).instanceId
    await box.files.write('src/message.txt', 'second version')
    let deploying = true
    const failures: string[] = []
    const versions = new Set<string>()
    let requests = 0
    const loop = async () => {
      // Bounded: stops with the deploy, or after 2,000 requests per loop at most.
      for (let count = 0; deploying && count < 2000; count += 1) {
        const answer = await api('/api/slow?ms=5').catch((error: Error) => ({
          status: 0,
          body: error.message,
        }))
        requests += 1
        if (answer.status !== 200) failures.push(`${answer.status} ${answer.body}`)
        else versions.add(JSON.parse(answer.body).version)
      }
    }
    const loops = [loop(), loop(), loop(), loop()]
    await waitFor(() => requests > 20)
    await deploy()
    await api('/api/version')
    deploying = false
    await Promise.all(loops)
    expect(failures).toEqual([])
    expect(requests).toBeGreaterThan(40)
    expect(versions).toEqual(new Set(['first version', 'second version']))
    const after = manager.status(appId).instanceId
    expect(after).not.toBe(before)
    expect(serverProcesses()).toHaveLength(1)
    expect(JSON.parse((await api('/api/version')).body).version).toBe('second version')
  })

  it.each([
    ['src/fail-start', /exited \(exit code 1\)[\s\S]*fixture: failing at start on purpose/],
    [
      'src/never-healthy',
      /did not answer GET \/api\/health with 2xx within 2 s \(last answer: 503; the server must answer it with 200\)/,
    ],
    // Attacks (docs/security.md "Answers of an app's server"): refused at 64 KiB, cut off in time.
    [
      'src/endless-health',
      /its answer to GET \/api\/health: the answer is too large \(over 65,536/,
    ],
    ['src/trickle-health', /did not answer GET \/api\/health with 2xx within 2 s:/],
  ])(
    'keeps the old deploy serving when the new server does not start (%s)',
    async (switchFile, detail) => {
      const quick = createManager({ healthTimeoutMs: 2000 })
      try {
        const before = await currentDeployId(deploysDir, appId)
        const serving = manager.status(appId).instanceId
        await box.files.write('src/message.txt', 'broken version')
        await box.files.write(switchFile, '')
        const failure = await deploy(quick).catch((error: unknown) => error)
        expect(failure).toBeInstanceOf(DeployBuildError)
        const message = (failure as Error).message
        expect(message).toMatch(/^The server did not start: /)
        expect(message).toMatch(detail)
        expect(await currentDeployId(deploysDir, appId)).toBe(before)
        expect(manager.status(appId).instanceId).toBe(serving)
        expect(JSON.parse((await api('/api/version')).body).version).toBe('second version')
        expect(serverProcesses()).toHaveLength(1)
      } finally {
        await box.files.delete(switchFile)
        await box.files.write('src/message.txt', 'second version')
        await quick.close()
      }
    },
  )

  it('answers 500 for a throwing route and keeps serving; restarts a crashed server, keeping its output', async () => {
    const boom = await api('/api/boom')
    expect(boom.status).toBe(500)
    expect((await api('/api/version')).status).toBe(200)
    const crashed = manager.status(appId).instanceId
    expect((await api('/api/crash')).status).toBe(200)
    await waitFor(() => {
      const status = manager.status(appId)
      return status.restarts === 1 && status.state === 'running' && status.instanceId !== crashed
    })
    expect((await api('/api/version')).status).toBe(200)
    const logs = manager.logs(appId)
    expect(logs).toContain('route failed: fixture: a route that throws')
    expect(logs).toMatch(/The server exited \(code 3\); restarting in 500 ms/)
    expect(logs.match(/fixture server second version listening/g)?.length).toBeGreaterThanOrEqual(2)
  })

  it('stops a server that leaks memory at its limit, not the machine, and restarts it', async () => {
    const cgroups = driver.enforcement.memory.includes('cgroup')
    if (!cgroups) return
    const leaking = manager.status(appId).instanceId
    const restarts = manager.status(appId).restarts
    const answer = await api('/api/leak').catch((error: Error) => ({
      status: 0,
      body: error.message,
    }))
    expect(answer.status).toBe(0)
    await waitFor(() => {
      const status = manager.status(appId)
      return (
        status.restarts > restarts && status.state === 'running' && status.instanceId !== leaking
      )
    }, 30_000)
    // Killed by the kernel inside its cgroup: bubblewrap reports 128 + SIGKILL.
    expect(manager.logs(appId)).toMatch(/The server exited \((code 137|SIGKILL)\)/)
    expect((await api('/api/version')).status).toBe(200)
  })

  it('stops an idle server, starts it on the next request, and after a restart; data survives', async () => {
    const idle = createManager({ idleMs: 300 })
    const saved = await (async () => {
      const lease = await idle.acquire(appId)
      if (!lease) throw new Error('no server')
      try {
        return await fetchThrough(lease.target, '/api/notes', 'a note before idling')
      } finally {
        lease.release()
      }
    })()
    expect(saved).toBe(201)
    // The main manager's server stops too (its own idle time is long): one server per app here.
    await manager.stop(appId)
    await waitFor(() => idle.status(appId).state === 'stopped' && serverProcesses().length === 0)
    const woken = await api('/api/notes', idle)
    expect(woken.status).toBe(200)
    expect(JSON.parse(woken.body).notes).toEqual(['a note before idling'])
    await idle.close()
    expect(serverProcesses()).toHaveLength(0)

    const restarted = createManager()
    try {
      const answer = await api('/api/notes', restarted)
      expect(JSON.parse(answer.body).notes).toEqual(['a note before idling'])
    } finally {
      await restarted.close()
    }
  })

  it('keeps a deploy without a server static: no /api', async () => {
    const staticBox = await driver.provision('vite-react')
    await deploy(manager, 'old-starter-app', staticBox)
    expect(await resolveDeployFile(deploysDir, 'old-starter-app', '/')).toMatch(/index\.html$/)
    expect(await manager.acquire('old-starter-app')).toBeUndefined()
    await driver.destroy(staticBox.id)
  })
})

/** POSTs `body` to the server and answers the status. */
function fetchThrough(target: DevServerTarget, requestPath: string, body: string) {
  return new Promise<number>((resolve, reject) => {
    const request = http.request(
      {
        ...targetConnection(target),
        method: 'POST',
        path: requestPath,
        headers: { host: 'localhost', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume()
        response.on('end', () => resolve(response.statusCode ?? 0))
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}
