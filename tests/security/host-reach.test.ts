import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createAppServerManager } from '@sprout/devbox/app-servers/app-server-manager.ts'
import { buildDeploy } from '@sprout/devbox/deploy.ts'
import { requestDevServer } from '@sprout/devbox/dev-server-request.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import { silentLogger } from '@sprout/devbox/logger.ts'
import { createFullStackFixtureTemplates } from '@sprout/devbox/testing/app-server-fixture.ts'
import { createFakeTemplates } from '@sprout/devbox/testing/devbox-support.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type HostProbeResult,
  hostListeningSockets,
  hostProbeSource,
  parseHostProbe,
} from './host-probe.ts'
import { confinedSuite, createTestDriver, fullConfinementMissing, shell } from './support.ts'

/**
 * App code in a dev box and a production server tries every way to the host a box's root once left
 * open (docs/security.md): host unix sockets (PostgreSQL ran commands through its socket), checkout
 * and DATA_DIR, pid 1's command line, nested user namespaces. Each must be refused.
 */
describe.skipIf(fullConfinementMissing)(confinedSuite('what app code reaches of the host'), () => {
  let setup: Awaited<ReturnType<typeof createTestDriver>>
  let box: Devbox
  let hostSocketFolder: string
  const hostServers: net.Server[] = []
  let probeInput: { sockets: string[]; paths: string[] }

  beforeAll(async () => {
    const templates = await mkdtemp(path.join(os.tmpdir(), 'sprout-host-reach-templates-'))
    await createFakeTemplates(templates)
    await createFullStackFixtureTemplates(templates)
    setup = await createTestDriver({ templatesDir: templates })
    // Sockets of host services in the places they usually are: the machine's /tmp, DATA_DIR.
    hostSocketFolder = await mkdtemp(path.join(os.tmpdir(), 'sprout-host-socket-'))
    const dataFolderSocket = path.join(setup.baseDirectory, 'devboxes', 'service.sock')
    for (const socketPath of [path.join(hostSocketFolder, 'service.sock'), dataFolderSocket]) {
      const server = net.createServer((socket) => socket.end('host service\n'))
      await new Promise<void>((resolve) => server.listen(socketPath, resolve))
      hostServers.push(server)
    }
    const abstract = net.createServer((socket) => socket.end('host service\n'))
    await new Promise<void>((resolve) => abstract.listen(`\0sprout-test-${process.pid}`, resolve))
    hostServers.push(abstract)
    probeInput = {
      sockets: hostListeningSockets(),
      paths: [process.cwd(), setup.baseDirectory, os.homedir(), hostSocketFolder, '/etc/shadow'],
    }
    box = await setup.driver.provision('vite-react', { id: 'reach-box' })
    await box.files.write('host-probe.mjs', hostProbeSource)
    // The input goes in a file: on the command line it would show on the box's pid 1.
    await box.files.write('host-probe.json', JSON.stringify(probeInput))
  }, 120_000)
  afterAll(async () => {
    for (const server of hostServers) server.close()
    await setup?.close()
    await rm(hostSocketFolder, { recursive: true, force: true })
  })

  const expectNothingOfTheHost = (result: HostProbeResult) => {
    expect(Object.keys(result.sockets).length).toBeGreaterThanOrEqual(3)
    for (const [socketPath, outcome] of Object.entries(result.sockets)) {
      expect(outcome, socketPath).not.toBe('open')
    }
    for (const [hostPath, seen] of Object.entries(result.visible)) {
      expect(seen, hostPath).toBe(false)
    }
    expect(result.pid1).not.toContain(setup.baseDirectory)
    expect(result.pid1).not.toContain(process.cwd())
    expect(result.pid1).not.toContain('sprout-run-')
    expect(result.nestedUserNamespace).toMatch(/^refused/)
    expect(result.seccomp).toBe('2')
    expect(result.tmpWritable).toBe(true)
    expect(result.sysVisible).toBe(false)
    expect(result.uid).not.toBe(0)
  }

  it('from a dev box: no host socket, checkout or DATA_DIR; no nested namespace', async () => {
    expect(probeInput.sockets).toContain(path.join(hostSocketFolder, 'service.sock'))
    const output = await shell(box, 'node host-probe.mjs host-probe.json')
    expectNothingOfTheHost(parseHostProbe(output))
  })

  it('from a production server: the same', async () => {
    const deploysDir = path.join(setup.baseDirectory, 'deploys')
    await mkdir(deploysDir, { recursive: true })
    const fullStack = await setup.driver.provision('fullstack', { id: 'reach-app' })
    const manager = createAppServerManager({
      deploysDir,
      startAppServer: setup.driver.startAppServer,
      idleMs: 60_000,
      idleCheckMs: 1000,
      healthTimeoutMs: 30_000,
      logger: silentLogger,
    })
    try {
      await buildDeploy({
        box: fullStack,
        deploysDir,
        appId: 'reach-app',
        timeoutSeconds: 60,
        appServers: manager,
      })
      const lease = await manager.acquire('reach-app')
      if (!lease) throw new Error('The production server did not start')
      const script = [
        "cat > /tmp/host-probe.mjs <<'PROBE'",
        hostProbeSource,
        'PROBE',
        "cat > /tmp/host-probe.json <<'INPUT'",
        JSON.stringify(probeInput),
        'INPUT',
        'node /tmp/host-probe.mjs /tmp/host-probe.json',
      ].join('\n')
      try {
        const answer = await requestDevServer(lease.target, '/api/shell', {
          method: 'POST',
          body: script,
          timeoutMs: 60_000,
        })
        expect(answer.status).toBe(200)
        expectNothingOfTheHost(parseHostProbe(JSON.parse(answer.body).output))
      } finally {
        lease.release()
      }
    } finally {
      await manager.close()
    }
  }, 180_000)
})
