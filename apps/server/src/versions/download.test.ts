import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { call, setUpChatApplication } from '../testing/chat-client.ts'

const run = promisify(execFile)

describe('Download: the workspace as a streamed zip', { timeout: 180_000 }, () => {
  const chat = setUpChatApplication({ maxRetries: 0 })
  const url = () => `/api/applications/${chat.applicationId}/download`
  const box = () => {
    const found = chat.harness.devboxes.box(chat.applicationId)
    if (!found) throw new Error('no dev box')
    return found
  }
  const download = () =>
    chat.harness.request(url(), {
      user: chat.actor.user,
      headers: { 'organization-id': chat.actor.organizationId },
    })

  it('zips the source without node_modules, .git, the data folder or links out of the workspace', async () => {
    const workspace = box().workspacePath
    await mkdir(path.join(workspace, '.data'), { recursive: true })
    await writeFile(path.join(workspace, '.data', 'app.db'), 'rows\n')
    await symlink('/etc/passwd', path.join(workspace, 'src', 'passwd-link.txt'))
    await symlink('/etc', path.join(workspace, 'etc-link'))
    const response = await download()
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/zip')
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.zip"/)
    const folder = await mkdtemp(path.join(tmpdir(), 'sprout-download-'))
    try {
      const zipPath = path.join(folder, 'app.zip')
      await writeFile(zipPath, Buffer.from(await response.arrayBuffer()))
      const listed = (await run('unzip', ['-Z1', zipPath])).stdout.split('\n').filter(Boolean)
      expect(listed).toContain('package.json')
      expect(listed).toContain('src/App.tsx')
      expect(listed.some((entry) => entry.startsWith('node_modules/'))).toBe(false)
      expect(listed.some((entry) => entry.startsWith('.git/'))).toBe(false)
      expect(listed.some((entry) => entry.startsWith('.data/'))).toBe(false)
      expect(listed).not.toContain('src/passwd-link.txt')
      expect(listed.some((entry) => entry.startsWith('etc-link'))).toBe(false)
      await run('unzip', ['-q', zipPath, '-d', path.join(folder, 'out')])
      const app = await run('cat', [path.join(folder, 'out', 'src', 'App.tsx')])
      expect(app.stdout).toBe(await box().files.read('src/App.tsx'))
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })

  // docs/product/versions.md "Download": unzipped, `npm install && npm run build` builds it (the
  // npm registry must be reachable, as for any new app's box).
  it('unzips into an app that npm install && npm run build builds', {
    timeout: 600_000,
  }, async () => {
    await box()
      .files.delete('src/passwd-link.txt')
      .catch(() => undefined)
    const response = await download()
    const folder = await mkdtemp(path.join(tmpdir(), 'sprout-download-build-'))
    try {
      const zipPath = path.join(folder, 'app.zip')
      await writeFile(zipPath, Buffer.from(await response.arrayBuffer()))
      const out = path.join(folder, 'out')
      await run('unzip', ['-q', zipPath, '-d', out])
      const npm = { cwd: out, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 }
      await run('npm', ['install', '--no-audit', '--no-fund'], npm)
      const built = await run('npm', ['run', 'build'], npm)
      expect(built.stdout).toMatch(/built in/)
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })

  it('streams its first byte quickly', async () => {
    const started = performance.now()
    const response = await download()
    const reader = response.body?.getReader()
    const first = await reader?.read()
    const elapsed = performance.now() - started
    await reader?.cancel()
    expect(first?.value?.byteLength).toBeGreaterThan(0)
    // docs/performance.md "Download": ≤ 200 ms; a loaded test machine gets more room.
    expect(elapsed).toBeLessThan(1000)
  })

  it('answers 404 for another organization and 403 for a non-member', async () => {
    const outsider = await chat.harness.signUp()
    const outsiderOrganization = await chat.harness.createOrganization(outsider)
    const asOutsider = {
      harness: chat.harness,
      user: outsider,
      organizationId: outsiderOrganization,
    }
    expect((await call(asOutsider, url())).status).toBe(404)
    const inOrganizationA = { ...asOutsider, organizationId: chat.actor.organizationId }
    expect((await call(inOrganizationA, url())).status).toBe(403)
    expect((await call(chat.actor, '/api/applications/nope/download')).status).toBe(404)
  })
})
