import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { CoreV1Api, NetworkingV1Api } from '@kubernetes/client-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppServerStartError } from '../../app-servers/app-server-instance.ts'
import { requestDevServer } from '../../dev-server-request.ts'
import { silentLogger } from '../../logger.ts'
import { fullStackFixtureFiles } from '../../testing/app-server-fixture.ts'
import { waitFor } from '../../testing/devbox-support.ts'
import { appResourceName, appServerPod, appServerPodName } from './app-server-manifests.ts'
import { createPodAppServerStarter } from './pod-app-servers.ts'
import { publishedAddress, startTestApiServer, type TestApiServer } from './testing/api-server.ts'
import { testBoxSettings } from './testing/test-box-settings.ts'

const namespace = 'sprout-boxes'

/** Builds the fixture app with `switches` (src/never-healthy, …) and gives its dist/ folder. */
async function buildDeploy(directory: string, switches: string[] = []): Promise<string> {
  await mkdir(path.join(directory, 'src'), { recursive: true })
  for (const [name, content] of Object.entries(fullStackFixtureFiles)) {
    await writeFile(path.join(directory, name), content)
  }
  for (const name of switches) await writeFile(path.join(directory, 'src', name), '')
  execFileSync(process.execPath, ['build.js'], { cwd: directory })
  return path.join(directory, 'dist')
}

/** Production servers as pods (decision 041), against the test API server's kubelet. */
describe('production servers as pods', () => {
  let baseDirectory = ''
  let server: TestApiServer
  let starter: ReturnType<typeof createPodAppServerStarter>
  let api: CoreV1Api
  let deployPath = ''
  const appId = randomUUID()

  beforeAll(async () => {
    baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-pod-apps-'))
    deployPath = await buildDeploy(path.join(baseDirectory, 'app'))
    server = await startTestApiServer({ rootDir: path.join(baseDirectory, 'cluster') })
    const kubeConfig = server.kubeConfig()
    api = kubeConfig.makeApiClient(CoreV1Api)
    const networking = kubeConfig.makeApiClient(NetworkingV1Api)
    starter = createPodAppServerStarter({
      access: {
        kubeConfig,
        api,
        settings: testBoxSettings(path.join(baseDirectory, 'templates')),
        agentToken: (id) => `token-of-${id}-0123456789`,
      },
      createPolicy: (body) => networking.createNamespacedNetworkPolicy({ namespace, body }),
      address: publishedAddress,
      dataDiskMb: 64,
      logger: silentLogger,
    })
  })
  afterAll(async () => {
    await starter?.stopAll()
    await server?.close()
    await rm(baseDirectory, { recursive: true, force: true, maxRetries: 3 })
  })

  const podNames = async () =>
    (await api.listNamespacedPod({ namespace })).items.map((pod) => pod.metadata?.name)
  /** A deleted pod stays while its processes stop (graceful deletion): waited for, not raced. */
  const expectPods = (names: (string | undefined)[]) =>
    expect.poll(podNames, { timeout: 30_000 }).toEqual(names)

  it('runs a deploy in a pod of its own, with the app data claim; its data outlives the pod', async () => {
    const first = await starter.start({
      appId,
      deployId: 'first',
      deployPath,
      dataPath: path.join(baseDirectory, 'unused'),
      env: { APP_SECRET: 'not-in-the-manifest' },
    })
    expect((await requestDevServer(first.target(), '/api/version')).body).toContain('first version')
    const saved = await requestDevServer(first.target(), '/api/notes', {
      method: 'POST',
      body: 'kept across pods',
    })
    expect(saved.status).toBeLessThan(300)
    // The secret reaches the server's process, and neither the agent's token nor the manifest.
    const shell = await requestDevServer(first.target(), '/api/shell', {
      method: 'POST',
      body: 'echo "secret=$APP_SECRET token=[$SPROUT_AGENT_TOKEN]"',
    })
    expect(shell.body).toContain('secret=not-in-the-manifest token=[]')
    const [pod] = (await api.listNamespacedPod({ namespace })).items
    expect(pod?.metadata?.name).toBe(`sprout-app-server-${first.id}`)
    expect(JSON.stringify(pod?.spec)).not.toContain('not-in-the-manifest')
    expect(pod?.spec?.volumes).toContainEqual({
      name: 'data',
      persistentVolumeClaim: { claimName: appResourceName(appId) },
    })
    expect(pod?.spec?.containers[0]?.securityContext?.readOnlyRootFilesystem).toBe(true)

    await first.stop()
    expect(first.running()).toBe(false)
    await expectPods([])
    const claims = await api.listNamespacedPersistentVolumeClaim({ namespace })
    expect(claims.items.map((claim) => claim.metadata?.name)).toEqual([appResourceName(appId)])

    const second = await starter.start({
      appId,
      deployId: 'second',
      deployPath,
      dataPath: path.join(baseDirectory, 'unused'),
    })
    expect(second.id).not.toBe(first.id)
    const notes = await requestDevServer(second.target(), '/api/notes')
    expect(notes.body).toContain('kept across pods')
    // A server that ends by itself takes its pod with it; the manager starts a new one.
    await requestDevServer(second.target(), '/api/crash').catch(() => undefined)
    expect(await second.exited).toMatchObject({ signal: null })
    expect(second.running()).toBe(false)
    await waitFor(async () => (await podNames()).length === 0)
    await second.stop()
  })

  it('ends the pod of a server whose instance died with it, and the next start deletes it', async () => {
    // An instance starts a server pod, then dies: its connection to the agent drops mid-run.
    const settings = testBoxSettings(path.join(baseDirectory, 'templates'))
    const instanceId = 'prod-0123456789ab-orphaned'
    await api.createNamespacedPod({
      namespace,
      body: appServerPod({ appId, instanceId }, settings, {
        agentToken: `token-of-${instanceId}-0123456789`,
      }),
    })
    const running = async () =>
      await api.readNamespacedPod({ namespace, name: appServerPodName(instanceId) })
    await waitFor(async () => (await running()).status?.phase === 'Running')
    const agentAddress = publishedAddress(await running(), settings.agentPort)
    await waitFor(
      async () =>
        (await fetch(`http://127.0.0.1:${agentAddress?.port}/health`).catch(() => undefined))
          ?.ok === true,
    )
    const dying = request({
      ...agentAddress,
      method: 'POST',
      path: '/run',
      headers: { authorization: `Bearer token-of-${instanceId}-0123456789` },
    })
    dying.on('error', () => {})
    dying.end(JSON.stringify({ command: ['sleep', '300'] }))
    await new Promise((resolve) => dying.on('response', resolve))
    dying.destroy()
    await waitFor(async () => (await running()).status?.phase === 'Succeeded')

    const next = await starter.start({
      appId,
      deployId: 'after',
      deployPath,
      dataPath: path.join(baseDirectory, 'unused'),
    })
    await expectPods([appServerPodName(next.id)])
    await next.stop()
  })

  it('says why a server that never answers its health route did not start, and leaves no pod', async () => {
    const never = await buildDeploy(path.join(baseDirectory, 'never'), ['never-healthy'])
    const starting = starter.start({
      appId,
      deployId: 'never',
      deployPath: never,
      dataPath: path.join(baseDirectory, 'unused'),
      healthTimeoutMs: 3000,
    })
    await expect(starting).rejects.toBeInstanceOf(AppServerStartError)
    await expect(starting).rejects.toThrow('/api/health')
    await expectPods([])
  })
})
