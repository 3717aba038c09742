// Push to Git against a real git server on loopback (git http-backend), listed in GIT_ALLOWED_HOSTS
// (docs/product/versions.md "Push to Git").
import type { GitRemote, PushResult } from '@sprout/protocol/api/versions.ts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestApp, type TestApp } from '../testing/app-harness.ts'
import { type ChatActor, call, createReadyApplication } from '../testing/chat-client.ts'
import { startGitHttpServer } from '../testing/git-http-server.ts'
import { capturePrinted } from '../testing/printed-output.ts'
import { GIT_NOT_HTTPS_URL, GIT_SSH_URL } from './git-hosts.ts'
import { PUSH_TOKEN_REFUSED } from './git-push.ts'

const token = 'sprout-test-token-5f1e2d3c4b'

describe('Push to Git', { timeout: 240_000 }, () => {
  let gitServer: Awaited<ReturnType<typeof startGitHttpServer>>
  let harness: TestApp
  let actor: ChatActor
  let applicationId: string
  const printed: string[] = []
  const remoteUrl = () => `/api/applications/${applicationId}/git-remote`
  const push = () =>
    call<PushResult & { error?: string }>(actor, `/api/applications/${applicationId}/push`, {})
  const box = () => {
    const found = harness.devboxes.box(applicationId)
    if (!found) throw new Error('no dev box')
    return found
  }

  beforeAll(async () => {
    capturePrinted(printed)
    gitServer = await startGitHttpServer(token)
    harness = await createTestApp({ GIT_ALLOWED_HOSTS: gitServer.host })
    const owner = await harness.signUpAdmin()
    actor = { harness, user: owner, organizationId: await harness.createOrganization(owner) }
    applicationId = await createReadyApplication(actor)
  })
  afterAll(async () => {
    vi.restoreAllMocks()
    await harness?.close()
    await gitServer?.close()
  })

  it('stores the remote with a write-only token', async () => {
    const url = await gitServer.createRepository('app')
    const saved = await call<GitRemote>(actor, remoteUrl(), { url, token }, 'PUT')
    expect(saved.status).toBe(200)
    expect(saved.body).toEqual({ url, branch: 'main', hasToken: true, integration: null })
    const read = await call<GitRemote>(actor, remoteUrl())
    expect(read.body).toEqual({ url, branch: 'main', hasToken: true, integration: null })
    expect(JSON.stringify(read.body)).not.toContain(token)
  })

  it('pushes the history, then fast-forwards after another version', async () => {
    await box().files.write('src/first.txt', 'first\n')
    const first = await box().checkpoint('First version')
    const pushed = await push()
    expect(pushed.status).toBe(200)
    expect(pushed.body.commitId).toBe(first)
    expect((await gitServer.log('app'))[0]).toBe(`${first} First version`)
    await box().files.write('src/second.txt', 'second\n')
    const second = await box().checkpoint('Second version')
    const again = await push()
    expect(again.status).toBe(200)
    const log = await gitServer.log('app')
    expect(log[0]).toBe(`${second} Second version`)
    expect(log[1]).toBe(`${first} First version`)
  })

  it('refuses to force over a diverged remote: 409 saying why', async () => {
    const head = (await gitServer.log('app'))[0]?.split(' ')[0] ?? ''
    const tree = (await gitServer.git('app', ['rev-parse', `${head}^{tree}`])).stdout.trim()
    const other = (
      await gitServer.git('app', [
        '-c',
        'user.name=Other',
        '-c',
        'user.email=other@example.com',
        'commit-tree',
        tree,
        '-p',
        head,
        '-m',
        'Made elsewhere',
      ])
    ).stdout.trim()
    await gitServer.git('app', ['update-ref', 'refs/heads/main', other])
    await box().files.write('src/third.txt', 'third\n')
    await box().checkpoint('Third version')
    const rejected = await push()
    expect(rejected.status).toBe(409)
    expect(rejected.body.error).toMatch(/never force-pushes/)
    expect((await gitServer.log('app'))[0]).toBe(`${other} Made elsewhere`)
  })

  it('says so when the token is wrong, and never shows a token', async () => {
    const url = await gitServer.createRepository('other')
    const wrong = 'wrong-token-9a8b7c6d'
    await call(actor, remoteUrl(), { url, token: wrong }, 'PUT')
    const refused = await push()
    expect(refused.status).toBe(422)
    expect(refused.body.error).toBe(PUSH_TOKEN_REFUSED)
    expect(JSON.stringify(refused.body)).not.toContain(wrong)
    // Saving without a token keeps the stored one.
    await call(actor, remoteUrl(), { url, token }, 'PUT')
    await call(actor, remoteUrl(), { url, branch: 'main' }, 'PUT')
    expect((await push()).status).toBe(200)
    for (const line of printed) {
      expect(line).not.toContain(token)
      expect(line).not.toContain(wrong)
    }
  })

  it('refuses loopback and private hosts GIT_ALLOWED_HOSTS does not list, and plain http elsewhere', async () => {
    for (const url of [
      'https://127.0.0.1/app.git',
      'https://10.0.0.5/app.git',
      'https://192.168.1.2/app.git',
      'https://169.254.169.254/latest.git',
      'https://[::1]/app.git',
      `http://127.0.0.1:${gitServer.port + 1}/app.git`,
      'http://example.com/app.git',
      `https://user:${token}@example.com/app.git`,
      'ftp://example.com/app.git',
    ]) {
      const refused = await call<{ error: string }>(actor, remoteUrl(), { url, token }, 'PUT')
      expect(refused.status, url).toBe(400)
      expect(refused.body.error).not.toContain(token)
    }
    expect((await call<GitRemote>(actor, remoteUrl())).body?.url).toContain(gitServer.host)
  })

  it('says an HTTPS address is needed for an SSH address or a non-URL, and names GIT_ALLOWED_HOSTS for a loopback http:// one', async () => {
    const refusal = async (url: string) => {
      const refused = await call<{ error: string }>(actor, remoteUrl(), { url }, 'PUT')
      expect(refused.status, url).toBe(400)
      return refused.body.error
    }
    for (const url of ['git@github.com:you/app.git', 'ssh://git@github.com/you/app.git']) {
      expect(await refusal(url)).toBe(GIT_SSH_URL)
    }
    for (const url of ['github.com/you/app', 'my repo', '', 'ftp://example.com/app.git']) {
      expect(await refusal(url)).toBe(GIT_NOT_HTTPS_URL)
    }
    expect(GIT_NOT_HTTPS_URL).toBe(
      "Enter the repository's HTTPS address, like https://github.com/you/app.git",
    )
    expect(await refusal(`http://127.0.0.1:${gitServer.port + 1}/app.git`)).toBe(
      `The git host 127.0.0.1 is a private or local address (127.0.0.1). An admin can allow it with GIT_ALLOWED_HOSTS.`,
    )
    expect(await refusal('http://localhost/app.git')).toContain('GIT_ALLOWED_HOSTS')
  })

  it('answers 404 for another organization, 403 for a non-member', async () => {
    const outsider = await harness.signUp()
    const asOutsider = {
      harness,
      user: outsider,
      organizationId: await harness.createOrganization(outsider),
    }
    expect((await call(asOutsider, remoteUrl())).status).toBe(404)
    expect(
      (await call(asOutsider, remoteUrl(), { url: 'https://example.com/a.git' }, 'PUT')).status,
    ).toBe(404)
    expect((await call(asOutsider, `/api/applications/${applicationId}/push`, {})).status).toBe(404)
    expect((await call(asOutsider, remoteUrl(), undefined, 'DELETE')).status).toBe(404)
    const inOrganizationA = { ...asOutsider, organizationId: actor.organizationId }
    expect(
      (await call(inOrganizationA, `/api/applications/${applicationId}/push`, {})).status,
    ).toBe(403)
    expect((await call<GitRemote>(actor, remoteUrl())).body?.hasToken).toBe(true)
  })

  it('forgets the remote', async () => {
    expect((await call(actor, remoteUrl(), undefined, 'DELETE')).status).toBe(200)
    expect((await call(actor, remoteUrl())).body).toBeNull()
    expect((await push()).status).toBe(400)
  })
})
