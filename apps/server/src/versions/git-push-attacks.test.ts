// Issue 29, items 1 and 15: what app code and a member could do with Push to Git
// (docs/product/versions.md "Push to Git"), against real git servers on loopback and a real box.
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type { GitRemote, PushResult } from '@sprout/protocol/api/versions.ts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestApp, type TestApp } from '../testing/app-harness.ts'
import { type ChatActor, call, createReadyApplication } from '../testing/chat-client.ts'
import { startEchoingGitServer, startGitHttpServer } from '../testing/git-http-server.ts'
import { capturePrinted } from '../testing/printed-output.ts'
import { checkGitTarget } from './git-hosts.ts'
import {
  MAX_BUNDLE_BYTES,
  PUSH_NOT_A_BUNDLE,
  PUSH_TOKEN_NEEDED,
  PUSH_TOO_LARGE,
  pushHistory,
} from './git-push.ts'

const run = promisify(execFile)
const token = 'sprout-attack-token-7d6c5b4a'

describe('Push to Git against hostile boxes and moved remotes', { timeout: 240_000 }, () => {
  let gitServer: Awaited<ReturnType<typeof startGitHttpServer>>
  let movedServer: Awaited<ReturnType<typeof startGitHttpServer>>
  let echoServer: Awaited<ReturnType<typeof startEchoingGitServer>>
  let harness: TestApp
  let actor: ChatActor
  let applicationId: string
  let hostFolder: string
  let hostRepository: string
  let hostCommit: string
  const printed: string[] = []
  const remoteUrl = () => `/api/applications/${applicationId}/git-remote`
  const push = () =>
    call<PushResult & { error?: string }>(actor, `/api/applications/${applicationId}/push`, {})
  const box = () => {
    const found = harness.devboxes.box(applicationId)
    if (!found) throw new Error('no dev box')
    return found
  }
  /** The app's login shell wraps git: `git bundle …` prints `printed` instead of a bundle. */
  const wrapGitBundle = (shell: string) =>
    box().files.write(
      '.bash_profile',
      `git() { if [ "$1" = bundle ]; then ${shell}; else command git "$@"; fi; }\n`,
    )
  const unwrapGit = () =>
    box()
      .files.delete('.bash_profile')
      .catch(() => undefined)
  const remoteRefs = async (name: string) =>
    (await gitServer.git(name, ['for-each-ref', '--format=%(objectname)'])).stdout.trim()

  beforeAll(async () => {
    capturePrinted(printed)
    // A repository of the host that the box cannot see.
    hostFolder = await mkdtemp(path.join(tmpdir(), 'sprout-host-repository-'))
    hostRepository = path.join(hostFolder, 'secret')
    const git = (args: string[]) =>
      run('git', ['-C', hostRepository, ...args], {
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
      })
    await run('git', ['init', '-q', '-b', 'main', hostRepository])
    await git([
      '-c',
      'user.name=Host',
      '-c',
      'user.email=host@example.com',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'Host secret',
    ])
    hostCommit = (await git(['rev-parse', 'HEAD'])).stdout.trim()

    gitServer = await startGitHttpServer(token)
    movedServer = await startGitHttpServer(token)
    echoServer = await startEchoingGitServer()
    harness = await createTestApp({
      GIT_ALLOWED_HOSTS: [gitServer.host, movedServer.host, echoServer.host].join(','),
    })
    const owner = await harness.signUpAdmin()
    actor = { harness, user: owner, organizationId: await harness.createOrganization(owner) }
    applicationId = await createReadyApplication(actor)
  })
  afterAll(async () => {
    vi.restoreAllMocks()
    await harness?.close()
    await gitServer?.close()
    await movedServer?.close()
    await echoServer?.close()
    if (hostFolder) await rm(hostFolder, { recursive: true, force: true })
  })

  it('refuses a box that answers `gitdir: <a host repository>`: nothing of the host reaches the remote', async () => {
    const url = await gitServer.createRepository('app')
    expect((await call(actor, remoteUrl(), { url, token }, 'PUT')).status).toBe(200)
    await wrapGitBundle(`printf 'gitdir: %s\\n' '${path.join(hostRepository, '.git')}'`)
    const refused = await push()
    expect(refused.status, JSON.stringify(refused.body)).toBe(422)
    expect(refused.body.error).toBe(PUSH_NOT_A_BUNDLE)
    expect(await remoteRefs('app')).toBe('')
    await expect(gitServer.git('app', ['cat-file', '-e', hostCommit])).rejects.toThrow()
  })

  it('refuses what is not a bundle, or only looks like one, then pushes a real one', async () => {
    for (const shell of [
      `printf 'not a bundle at all\\n'`,
      `printf '# v2 git bundle\\n%s HEAD\\n\\nPACKjunk' '${hostCommit}'`,
    ]) {
      await wrapGitBundle(shell)
      const refused = await push()
      expect(refused.status, shell).toBe(422)
      expect(refused.body.error).toBe(PUSH_NOT_A_BUNDLE)
    }
    expect(await remoteRefs('app')).toBe('')
    await unwrapGit()
    await box().files.write('src/pushed.txt', 'pushed\n')
    const commit = await box().checkpoint('Pushed version')
    const pushed = await push()
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200)
    expect((await gitServer.log('app'))[0]).toBe(`${commit} Pushed version`)
  })

  it('writes the bundle to a file as it comes: an endless answer is stopped at the cap', async () => {
    // A bundle's header, then zeros without end.
    await wrapGitBundle(
      `{ printf '# v2 git bundle\\n%s HEAD\\n\\nPACK' '${hostCommit}'; cat /dev/zero; }`,
    )
    const url = await gitServer.createRepository('endless')
    const target = await checkGitTarget(url, [gitServer.host])
    // The route's cap is MAX_BUNDLE_BYTES (192 MiB); a smaller one spares the test's machine.
    const maxBundleBytes = 4 * 1024 * 1024
    const refused = pushHistory({ box: box(), target, branch: 'main', token, maxBundleBytes })
    await expect(refused).rejects.toThrow(PUSH_TOO_LARGE(maxBundleBytes))
    // The box's command was stopped at the cap, not left to its time limit.
    const left = await box().exec('pgrep -x cat || true', { timeoutSeconds: 10 })
    expect(left.output.trim()).toBe('')
    expect(await remoteRefs('endless')).toBe('')
    expect(PUSH_TOO_LARGE(MAX_BUNDLE_BYTES)).toBe(
      "The app's history is too large to push (over 192 MiB as a git bundle).",
    )
    await unwrapGit()
  })

  it('keeps the token for another repository of the same host, drops it for another host', async () => {
    await unwrapGit()
    const home = await gitServer.createRepository('token-home')
    expect((await call(actor, remoteUrl(), { url: home, token }, 'PUT')).status).toBe(200)
    const sameHost = await gitServer.createRepository('same-host')
    const kept = await call<GitRemote>(actor, remoteUrl(), { url: sameHost }, 'PUT')
    expect(kept.body?.hasToken).toBe(true)
    expect((await push()).status).toBe(200)

    const elsewhere = await movedServer.createRepository('moved')
    const moved = await call<GitRemote>(actor, remoteUrl(), { url: elsewhere }, 'PUT')
    expect(moved.status).toBe(200)
    expect(moved.body?.hasToken).toBe(false)
    const asked = await push()
    expect(asked.status).toBe(422)
    expect(asked.body.error).toBe(PUSH_TOKEN_NEEDED)
    expect(movedServer.seenAuthorizations.length).toBeGreaterThan(0)
    expect(movedServer.seenAuthorizations.every((header) => header === '')).toBe(true)
    // Back on the first host, the token is gone there too: it must be given again.
    const back = await call<GitRemote>(actor, remoteUrl(), { url: sameHost }, 'PUT')
    expect(back.body?.hasToken).toBe(false)
  })

  it('shows no encoding of the token that a remote echoes back', async () => {
    await unwrapGit()
    const echoed = 'echo/token+with=chars&more-9f8e7d'
    await call(actor, remoteUrl(), { url: echoServer.url, token: echoed }, 'PUT')
    const failed = await push()
    expect(failed.status).toBe(422)
    const basic = Buffer.from(`x-access-token:${echoed}`).toString('base64')
    expect(echoServer.seenAuthorizations).toContain(`Basic ${basic}`)
    const shown = failed.body.error ?? ''
    expect(shown).toMatch(/^The push failed: .*remote error/s)
    for (const encoding of [
      echoed,
      basic,
      encodeURIComponent(echoed),
      Buffer.from(`user:${echoed}`).toString('base64'),
      Buffer.from(echoed).toString('base64url'),
    ]) {
      expect(shown).not.toContain(encoding)
      for (const line of printed) expect(line).not.toContain(encoding)
    }
  })
})
