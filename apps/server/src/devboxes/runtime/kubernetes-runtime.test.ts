import { execFile } from 'node:child_process'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import {
  publishedAddress,
  startTestApiServer,
  type TestApiServer,
} from '@sprout/devbox/drivers/kubernetes/testing/api-server.ts'
import { testAgentPath } from '@sprout/devbox/drivers/kubernetes/testing/test-box-settings.ts'
import { findFreePort } from '@sprout/devbox/drivers/local/processes/free-port.ts'
import { createDependencyCache } from '@sprout/devbox/drivers/local/workspace/dependency-cache.ts'
import { BOX_IDENTITY_HEADER, boxIdentityToken } from '@sprout/devbox/egress/box-identity.ts'
import { createEgressProxy } from '@sprout/devbox/egress/egress-proxy.ts'
import { silentLogger } from '@sprout/devbox/logger.ts'
import { fullStackFixtureFiles } from '@sprout/devbox/testing/app-server-fixture.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, testDevboxCacheDir } from '../../testing/app-harness.ts'
import {
  type ChatApplication,
  call,
  createReadyApplication,
  listenToConversation,
  sendMessage,
} from '../../testing/chat-client.ts'
import { rawRequest } from '../../testing/raw-request.ts'
import { templatesDir } from './create-local-runtime.ts'

/**
 * The box image's starters on this machine: each template with its dependencies, as
 * deploy/box-image/ installs them. The dependencies are hard links to the tests' cache, never
 * the cache itself: a pod's Vite writes its pre-bundled modules (node_modules/.vite) for its own
 * root, which every local test box reading the cache would then find out of date and, unable to
 * write there, fail to start.
 */
async function imageTemplates(folder: string) {
  const cache = createDependencyCache({ cacheDir: testDevboxCacheDir, logger: silentLogger })
  for (const packType of ['fullstack', 'vite-react']) {
    const template = path.join(templatesDir, packType)
    const target = path.join(folder, packType)
    await cp(template, target, {
      recursive: true,
      filter: (source) => !/(^|\/)(node_modules|dist)(\/|$)/.test(path.relative(template, source)),
    })
    const dependencies = path.join(await cache.prepare(packType, template), 'node_modules')
    await execFileAsync('cp', ['-al', dependencies, path.join(target, 'node_modules')])
    await rm(path.join(target, 'node_modules', '.vite'), { recursive: true, force: true })
  }
  return folder
}

const execFileAsync = promisify(execFile)

// DEVBOX_DRIVER=kubernetes (decision 037): the server's runtime, pool and routes over the
// kubernetes driver, against the test API server whose kubelet runs each pod as processes here.
describe('Sprout with DEVBOX_DRIVER=kubernetes', { timeout: 240_000 }, () => {
  let baseDirectory = ''
  let server: TestApiServer | undefined
  let closeProxy: () => Promise<void> = async () => {}
  const chat = {} as ChatApplication

  beforeAll(async () => {
    baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-kubernetes-runtime-'))
    const templates = await imageTemplates(path.join(baseDirectory, 'image'))
    server = await startTestApiServer({
      rootDir: path.join(baseDirectory, 'cluster'),
      imagePaths: [templates],
    })
    const proxyPort = await findFreePort()
    const harness = await createTestApp(
      {
        DEVBOX_DRIVER: 'kubernetes',
        KUBERNETES_NAMESPACE: 'sprout-boxes',
        KUBERNETES_EGRESS_PROXY: `127.0.0.1:${proxyPort}`,
      },
      {
        kubernetes: {
          kubeConfig: server.kubeConfig(),
          address: publishedAddress,
          imagePaths: { templatesPath: templates, agentPath: testAgentPath },
        },
      },
    )
    await harness.listen()
    // The pods' egress proxy (decision 039), sending sprout.internal on to this Sprout.
    const proxy = await createEgressProxy({
      policy: 'none',
      registryUrl: 'https://registry.npmjs.org/',
      logger: silentLogger,
    }).listenForPods({
      port: proxyPort,
      host: '127.0.0.1',
      sproutUrl: `http://127.0.0.1:${harness.port}`,
    })
    closeProxy = proxy.close
    const owner = await harness.signUpAdmin()
    const actor = { harness, user: owner, organizationId: await harness.createOrganization(owner) }
    Object.assign(chat, {
      harness,
      actor,
      close: () => harness.close(),
    })
    chat.applicationId = await createReadyApplication(actor)
  }, 240_000)
  afterAll(async () => {
    await chat.harness?.close()
    await server?.close()
    await closeProxy()
    await rm(baseDirectory, { recursive: true, force: true, maxRetries: 3 })
  })

  it("makes the application's box a pod with its claim and network policy", async () => {
    const created = (server?.created ?? []) as { kind?: string; metadata?: { name?: string } }[]
    const kinds = created.map(
      (resource) => `${resource.kind} ${resource.metadata?.name?.startsWith('sprout-box-')}`,
    )
    expect(kinds).toEqual(
      expect.arrayContaining(['PersistentVolumeClaim true', 'NetworkPolicy true', 'Pod true']),
    )
    const target = chat.harness.devboxes.devServerTarget(chat.applicationId)
    expect(target && 'port' in target).toBe(true)
    const page = await fetch(
      `http://${target && 'host' in target ? target.host : ''}:${target && 'port' in target ? target.port : 0}/`,
    )
    expect(await page.text()).toContain('<div id="root">')
  })

  it("saves and reads a file through the Code tab's calls", async () => {
    const base = `/api/applications/${chat.applicationId}/files/content`
    const saved = await call(
      chat.actor,
      base,
      { path: 'notes/pod.md', content: '# In a pod\n' },
      'PUT',
    )
    expect(saved.status).toBe(200)
    const read = await call<{ content: string }>(chat.actor, `${base}?path=notes/pod.md`)
    expect(read.body.content).toBe('# In a pod\n')
  })

  it('runs the Demo model: its files and commands land in the pod, and a version is kept', async () => {
    const sent = await sendMessage(chat, { message: 'Build a counter app', model: 'demo' })
    const envelopes = await listenToConversation(chat, sent.conversation_id)
    const types = envelopes.map((envelope) => envelope.chunk.type)
    expect(types).toContain('finish')
    expect(types).not.toContain('error')
    const versions = await call<{ versions: unknown[] }>(
      chat.actor,
      `/api/applications/${chat.applicationId}/versions`,
    )
    expect(versions.body.versions.length).toBeGreaterThan(1)
  })

  it('reaches sprout.internal from inside the pod only through the egress proxy, as its own box', async () => {
    const box = chat.harness.devboxes.box(chat.applicationId)
    const script =
      "fetch('http://sprout.internal/nothing').then(async (r) => console.log(r.status, await r.text()))"
    // The box image's Node (24, NODE_USE_ENV_PROXY): here, the one running this test.
    const result = await box?.exec(`'${process.execPath}' -e "${script}"`, { timeoutSeconds: 60 })
    expect(result?.output).toContain('404 Only POST /api/{project}/envelope/')
    // Straight to Sprout, a box id without its token, or another box's token, is refused.
    const boxId = box?.id ?? ''
    for (const identity of [
      undefined,
      `${boxId}:forged`,
      `${boxId}:${boxIdentityToken(Buffer.alloc(32), boxId)}`,
    ]) {
      const headers: Record<string, string> = identity ? { [BOX_IDENTITY_HEADER]: identity } : {}
      const answer = await rawRequest(chat.harness.port, 'sprout.internal', '/nothing', headers)
      expect(answer.status, String(identity)).toBe(403)
    }
  })

  it("deploys a full-stack app: built in the box's pod, served from a pod of its own (decision 041)", async () => {
    const box = chat.harness.devboxes.box(chat.applicationId)
    for (const [name, content] of Object.entries(fullStackFixtureFiles)) {
      await box?.files.write(name, content)
    }
    await call(
      chat.actor,
      `/api/applications/${chat.applicationId}`,
      { visibility: 'public' },
      'PATCH',
    )
    const deployed = await call(
      chat.actor,
      `/api/applications/${chat.applicationId}/deploy`,
      undefined,
      'POST',
    )
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(200)
    const details = await call<{ preview_url: string }>(
      chat.actor,
      `/api/applications/${chat.applicationId}`,
    )
    const appsHost = new URL(details.body.preview_url).host.replace('.preview.', '.apps.')
    const version = await rawRequest(chat.harness.port, appsHost, '/api/version')
    expect(version.status).toBe(200)
    expect(version.body).toContain('first version')
    const created = (server?.created ?? []) as { kind?: string; metadata?: { name?: string } }[]
    const servers = created.filter(
      (resource) =>
        resource.kind === 'Pod' && resource.metadata?.name?.startsWith('sprout-app-server-'),
    )
    expect(servers.length).toBeGreaterThan(0)
  })
})
