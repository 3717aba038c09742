import { mkdtemp, rm } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../logger.ts'
import {
  createFakeTemplates,
  answersHttp as devServerAnswers,
  waitFor,
} from '../../testing/devbox-support.ts'
import { waitForPod } from './box-pod.ts'
import { createKubernetesDriver } from './kubernetes-driver.ts'
import { publishedAddress, startTestApiServer, type TestApiServer } from './testing/api-server.ts'
import { testBoxSettings } from './testing/test-box-settings.ts'

// What issue 31 "Faults" asks of the driver, against the test API server (decision 037).
let baseDirectory = ''
let server: TestApiServer
let templates = ''

beforeAll(async () => {
  baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-kubernetes-faults-'))
  templates = await createFakeTemplates(path.join(baseDirectory, 'templates'))
  server = await startTestApiServer({
    rootDir: path.join(baseDirectory, 'cluster'),
    imagePaths: [templates],
  })
})

afterAll(async () => {
  await server?.close()
  await rm(baseDirectory, { recursive: true, force: true, maxRetries: 3 })
})

describe('the kubernetes driver when things fail', () => {
  it('says plainly that the API server cannot be reached', async () => {
    const unreachable = new KubeConfig()
    unreachable.loadFromOptions({
      // Within this suite's ports (29700–29799) and never listened on.
      clusters: [{ name: 'gone', server: 'http://127.0.0.1:29799', skipTLSVerify: true }],
      users: [{ name: 'sprout', token: 'none' }],
      contexts: [{ name: 'gone', cluster: 'gone', user: 'sprout' }],
      currentContext: 'gone',
    })
    const driver = createKubernetesDriver({
      kubeConfig: unreachable,
      settings: testBoxSettings(templates),
      logger: silentLogger,
    })
    await expect(driver.provision('vite-react', { id: 'unreachable' })).rejects.toThrow(
      /The Kubernetes API server could not be reached/,
    )
  })

  it('keeps a running box working while the API server cannot be reached', async () => {
    // The API server behind a proxy this test cuts: the box's pod and agent stay as they were.
    const connections = new Set<net.Socket>()
    const proxy = net.createServer((client) => {
      const upstream = net.connect(Number(new URL(server.url).port), '127.0.0.1')
      for (const socket of [client, upstream]) {
        connections.add(socket)
        socket.on('error', () => socket.destroy())
        socket.on('close', () => connections.delete(socket))
      }
      client.pipe(upstream).pipe(client)
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    const kubeConfig = server.kubeConfig()
    const cluster = kubeConfig.getCurrentCluster()
    kubeConfig.loadFromOptions({
      clusters: [
        {
          ...cluster,
          name: 'cut',
          server: `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`,
        },
      ],
      users: kubeConfig.users,
      contexts: [{ name: 'cut', cluster: 'cut', user: kubeConfig.users[0]?.name ?? '' }],
      currentContext: 'cut',
    })
    const driver = createKubernetesDriver({
      kubeConfig,
      settings: testBoxSettings(templates),
      address: publishedAddress,
      logger: silentLogger,
    })
    const box = await driver.provision('vite-react', { id: 'api-cut' })
    try {
      proxy.close()
      for (const socket of connections) socket.destroy()
      // The preview, the files and the commands: the pod's own address, no API call.
      expect(await devServerAnswers(box.devServer.target())).toBe(true)
      await box.files.write('during.txt', 'written while the API server was away\n')
      const result = await box.exec('cat during.txt', { timeoutSeconds: 30 })
      expect(result).toMatchObject({
        exitCode: 0,
        output: 'written while the API server was away\n',
      })
      // A new box needs the API server: it says so.
      await expect(driver.provision('vite-react', { id: 'api-cut-new' })).rejects.toThrow(
        /The Kubernetes API server could not be reached/,
      )
    } finally {
      await driver.shutdown().catch(() => undefined)
      const api = server.kubeConfig().makeApiClient(CoreV1Api)
      await api.deleteNamespacedPod({ namespace: 'sprout-boxes', name: 'sprout-box-api-cut' })
      await waitFor(
        async () => (await api.listNamespacedPod({ namespace: 'sprout-boxes' })).items.length === 0,
        60_000,
      )
    }
  }, 120_000)

  it('brings an evicted box back from its claim on its next use', async () => {
    const driver = createKubernetesDriver({
      kubeConfig: server.kubeConfig(),
      settings: testBoxSettings(templates),
      address: publishedAddress,
      logger: silentLogger,
    })
    const box = await driver.provision('vite-react', { id: 'evicted' })
    try {
      await box.files.write('kept.txt', 'on the claim\n')
      const api = server.kubeConfig().makeApiClient(CoreV1Api)
      // An eviction, as the node's pressure or a drain would do it: the pod goes, not the claim.
      await api.deleteNamespacedPod({ namespace: 'sprout-boxes', name: 'sprout-box-evicted' })
      await waitFor(
        async () => (await api.listNamespacedPod({ namespace: 'sprout-boxes' })).items.length === 0,
        60_000,
      )
      const result = await box.exec('cat kept.txt', { timeoutSeconds: 30 })
      expect(result).toMatchObject({ exitCode: 0, output: 'on the claim\n' })
      expect(box.devServer.status()).toBe('stopped')
      await box.devServer.start()
      expect(box.devServer.status()).toBe('running')
    } finally {
      await driver.destroy('evicted')
      await driver.shutdown()
    }
  }, 120_000)

  it('opens a dropped watch again from the last resourceVersion it saw', async () => {
    const kubeConfig = server.kubeConfig()
    const api = kubeConfig.makeApiClient(CoreV1Api)
    const access = {
      kubeConfig,
      api,
      settings: testBoxSettings(templates),
      agentToken: () => 'unused',
    }
    const watchesOfLate = () =>
      server.requests.filter(
        (request) => request.includes('watch=true') && request.includes('late'),
      )
    const waiting = waitForPod(access, 'late', (pod) => pod?.metadata?.labels?.stage === 'second')
    await waitFor(() => watchesOfLate().length === 1)
    const namespace = 'sprout-boxes'
    const body = {
      metadata: { name: 'late', labels: { stage: 'first' } },
      spec: { containers: [{ name: 'box', image: 'none', command: ['sleep', '60'] }] },
    }
    await api.createNamespacedPod({ namespace, body })
    await waitFor(
      async () =>
        (await api.readNamespacedPod({ namespace, name: 'late' })).status?.phase === 'Running',
    )
    server.dropWatches()
    await waitFor(() => watchesOfLate().length === 2)
    // The second watch starts after the versions the first delivered: no list in between.
    const versionOf = (request: string | undefined) =>
      Number(new URL(request?.split(' ')[1] ?? '', 'http://x').searchParams.get('resourceVersion'))
    expect(versionOf(watchesOfLate()[1])).toBeGreaterThan(versionOf(watchesOfLate()[0]))
    await api.deleteNamespacedPod({ namespace, name: 'late' })
    await waitFor(
      async () => (await api.listNamespacedPod({ namespace })).items.length === 0,
      30_000,
    )
    await api.createNamespacedPod({
      namespace,
      body: { ...body, metadata: { name: 'late', labels: { stage: 'second' } } },
    })
    expect((await waiting)?.metadata?.labels?.stage).toBe('second')
    await api.deleteNamespacedPod({ namespace, name: 'late' })
  }, 60_000)
})
