import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import {
  ApiException,
  CoreV1Api,
  Exec,
  type V1Pod,
  type V1Status,
  Watch,
} from '@kubernetes/client-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { waitFor } from '../../../testing/devbox-support.ts'
import { startTestApiServer, type TestApiServer } from './api-server.ts'

// The test API server through @kubernetes/client-node itself: what a cluster answers, it answers.
const namespace = 'sprout-boxes'
let server: TestApiServer
let rootDir = ''
let api: CoreV1Api

const pod = (name: string, claim: string): V1Pod => ({
  metadata: { name, labels: { 'sprout.dev/box': name } },
  spec: {
    terminationGracePeriodSeconds: 2,
    containers: [
      {
        name: 'box',
        image: 'sprout-box',
        command: ['sh', '-c', 'trap "exit 0" TERM; while :; do sleep 1; done'],
        workingDir: '/workspace',
        env: [
          { name: 'PORT', value: '3000' },
          { name: 'RUN_DIR', value: '/tmp/run' },
        ],
        ports: [{ containerPort: 3000 }],
        volumeMounts: [
          { name: 'workspace', mountPath: '/workspace' },
          { name: 'tmp', mountPath: '/tmp' },
        ],
      },
    ],
    volumes: [
      { name: 'workspace', persistentVolumeClaim: { claimName: claim } },
      { name: 'tmp', emptyDir: {} },
    ],
  },
})

beforeAll(async () => {
  rootDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-kube-api-'))
  server = await startTestApiServer({ rootDir })
  api = server.kubeConfig().makeApiClient(CoreV1Api)
})

afterAll(async () => {
  await server?.close()
  await rm(rootDir, { recursive: true, force: true })
})

async function execIn(name: string, command: string[]) {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let output = ''
  stdout.on('data', (data: Buffer) => (output += data.toString()))
  stderr.on('data', (data: Buffer) => (output += data.toString()))
  const status = await new Promise<V1Status>((resolve, reject) => {
    new Exec(server.kubeConfig())
      .exec(namespace, name, 'box', command, stdout, stderr, null, false, resolve)
      .catch(reject)
  })
  return { output, status }
}

describe('the test Kubernetes API server', () => {
  it('creates, lists, gets and refuses as kube-apiserver does', async () => {
    await api.createNamespacedPersistentVolumeClaim({
      namespace,
      body: {
        metadata: { name: 'one' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    })
    const duplicate = await api
      .createNamespacedPersistentVolumeClaim({ namespace, body: { metadata: { name: 'one' } } })
      .catch((error: unknown) => error)
    expect(duplicate).toBeInstanceOf(ApiException)
    expect((duplicate as ApiException<unknown>).code).toBe(409)
    expect(JSON.parse((duplicate as ApiException<string>).body)).toMatchObject({
      kind: 'Status',
      reason: 'AlreadyExists',
      message: 'persistentvolumeclaims "one" already exists',
    })
    const missing = await api
      .readNamespacedPod({ namespace, name: 'none' })
      .catch((error: unknown) => error)
    expect((missing as ApiException<unknown>).code).toBe(404)
    const claims = await api.listNamespacedPersistentVolumeClaim({ namespace })
    expect(claims.items.map((claim) => claim.metadata?.name)).toEqual(['one'])
  })

  it('runs a pod to Running, watched from a resourceVersion, and execs in its workspace', async () => {
    const { metadata } = await api.listNamespacedPod({ namespace })
    const phases: string[] = []
    const controller = await new Watch(server.kubeConfig()).watch(
      `/api/v1/namespaces/${namespace}/pods`,
      { resourceVersion: metadata?.resourceVersion, fieldSelector: 'metadata.name=first' },
      (_type, object: V1Pod) => phases.push(object.status?.phase ?? 'none'),
      () => {},
    )
    await api.createNamespacedPod({ namespace, body: pod('first', 'one') })
    await waitFor(() => phases.includes('Running'))
    controller.abort()
    expect(phases[0]).toBe('none')
    expect(phases).toContain('Pending')

    const written = await execIn('first', [
      'sh',
      '-c',
      'echo kept > file.txt; pwd; echo "$PORT" >&2; exit 3',
    ])
    expect(written.status).toMatchObject({ status: 'Failure', reason: 'NonZeroExitCode' })
    expect(written.status.details?.causes?.[0]?.message).toBe('3')
    expect(written.output).toContain(path.join(rootDir, 'volumes', namespace, 'one'))
    const read = await execIn('first', ['cat', 'file.txt'])
    expect(read).toMatchObject({ output: 'kept\n', status: { status: 'Success' } })
  })

  it('deletes a pod after stopping its processes, and keeps its claim', async () => {
    await execIn('first', ['sh', '-c', 'setsid sleep 300 > /dev/null 2>&1 &'])
    await api.deleteNamespacedPod({ namespace, name: 'first' })
    await waitFor(async () => (await api.listNamespacedPod({ namespace })).items.length === 0)
    await api.createNamespacedPod({ namespace, body: pod('second', 'one') })
    await waitFor(
      async () =>
        (await api.readNamespacedPod({ namespace, name: 'second' })).status?.phase === 'Running',
    )
    expect((await execIn('second', ['cat', 'file.txt'])).output).toBe('kept\n')
    await api.deleteNamespacedPod({ namespace, name: 'second' })
    await api.deleteNamespacedPersistentVolumeClaim({ namespace, name: 'one' })
    await waitFor(
      async () => (await api.listNamespacedPersistentVolumeClaim({ namespace })).items.length === 0,
    )
  })

  it('speaks v4.channel.k8s.io to a client that offers no v5', async () => {
    await api.createNamespacedPod({ namespace, body: pod('third', 'two') })
    await api.createNamespacedPersistentVolumeClaim({
      namespace,
      body: { metadata: { name: 'two' } },
    })
    await waitFor(
      async () =>
        (await api.readNamespacedPod({ namespace, name: 'third' })).status?.phase === 'Running',
    )
    const url = `${server.url.replace('http', 'ws')}/api/v1/namespaces/${namespace}/pods/third/exec?command=echo&command=v4&stdout=true`
    const socket = new WebSocket(url, ['v4.channel.k8s.io'], {
      headers: { authorization: 'Bearer sprout-test-token' },
    })
    const frames: Buffer[] = []
    socket.on('message', (data: Buffer) => frames.push(data))
    await new Promise((resolve) => socket.on('close', resolve))
    expect(socket.protocol).toBe('v4.channel.k8s.io')
    expect(frames.map((frame) => [frame[0], frame.subarray(1).toString()])).toEqual([
      [1, 'v4\n'],
      [3, JSON.stringify({ metadata: {}, status: 'Success' })],
    ])
  })

  it('forwards a port as kubelet does, and refuses what kubelet refuses', async () => {
    // The happy path carries the driver contract through port-forward (decision 040).
    const forward = (query: string, protocol: string) =>
      new WebSocket(
        `${server.url.replace('http', 'ws')}/api/v1/namespaces/${namespace}/pods/third/portforward?${query}`,
        [protocol],
        { headers: { authorization: 'Bearer sprout-test-token' } },
      )
    const frames = await new Promise<Buffer[]>((resolve) => {
      const received: Buffer[] = []
      const socket = forward('ports=3999', 'v4.channel.k8s.io')
      socket.on('message', (data: Buffer) => received.push(data))
      socket.on('close', () => resolve(received))
    })
    // A port nothing listens on: both channels open with it (two little-endian bytes), then the
    // error channel says why, then the socket ends.
    expect(frames.slice(0, 2).map((frame) => [...frame])).toEqual([
      [0, 0x9f, 0x0f],
      [1, 0x9f, 0x0f],
    ])
    expect(frames[2]?.[0]).toBe(1)
    expect(frames[2]?.subarray(1).toString()).toContain('3999')
    const statusOf = (socket: WebSocket) =>
      new Promise<number>((resolve) => {
        socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
        socket.on('error', () => {})
      })
    expect(await statusOf(forward('ports=3000', 'v5.channel.k8s.io'))).toBe(400)
    expect(await statusOf(forward('ports=3000,3001', 'v4.channel.k8s.io'))).toBe(400)
    expect(await statusOf(forward('ports=0', 'v4.channel.k8s.io'))).toBe(400)
  })

  it('refuses a request without its token, a huge body and a watch from a version it never had', async () => {
    const base = `${server.url}/api/v1/namespaces/${namespace}/pods`
    expect((await fetch(base)).status).toBe(401)
    const headers = {
      authorization: 'Bearer sprout-test-token',
      'content-type': 'application/json',
    }
    const huge = await fetch(base, { method: 'POST', headers, body: 'x'.repeat(4 * 1024 * 1024) })
    expect(huge.status).toBe(413)
    const watch = await fetch(`${base}?watch=1&resourceVersion=999999999`, { headers })
    const event = JSON.parse((await watch.text()).trim()) as {
      type: string
      object: { code: number }
    }
    expect(event).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired' } })
  })
})
