import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../logger.ts'
import { createFakeTemplates, waitFor } from '../../testing/devbox-support.ts'
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
