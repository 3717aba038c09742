// Long file: the Code tab's calls over real HTTP, a real dev box and a fake Anthropic server; the
// scenarios build on each other in order (docs/product/versions.md "Code").
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { appHandEdits } from '@sprout/db/schema/app-versions.ts'
import type {
  FileContent,
  FileTreeResponse,
  SaveFileResponse,
  VersionPage,
} from '@sprout/protocol/api/versions.ts'
import { describe, expect, it } from 'vitest'
import {
  call,
  listenToConversation,
  sendMessage,
  setUpChatApplication,
} from '../testing/chat-client.ts'
import { hasPendingHandEdits } from './edit-versions.ts'
import {
  BINARY_FILE_REFUSED,
  GIT_FOLDER_REFUSED,
  SAVE_CONFLICT,
  SAVE_DURING_RUN,
} from './workspace-files.ts'

const model = 'claude-sonnet-4-5'

describe('the Code tab: file tree, read, save, edit versions', { timeout: 180_000 }, () => {
  const chat = setUpChatApplication({ maxRetries: 0 })
  const base = () => `/api/applications/${chat.applicationId}/files`
  const box = () => {
    const found = chat.harness.devboxes.box(chat.applicationId)
    if (!found) throw new Error('no dev box')
    return found
  }
  const tree = (folder?: string) =>
    call<FileTreeResponse>(
      chat.actor,
      folder === undefined ? base() : `${base()}?path=${encodeURIComponent(folder)}`,
    )
  const open = (file: string) =>
    call<FileContent>(chat.actor, `${base()}/content?path=${encodeURIComponent(file)}`)
  const save = (body: unknown) =>
    call<SaveFileResponse & { error?: string }>(chat.actor, `${base()}/content`, body, 'PUT')
  const versions = async () =>
    (await call<VersionPage>(chat.actor, `/api/applications/${chat.applicationId}/versions`)).body
  const gitConfig = async () => (await box().exec('cat .git/config', { timeoutSeconds: 10 })).output
  let conversationId: string | undefined

  it('lists one folder at a time, folders first, without node_modules, .git or build output', async () => {
    await mkdir(path.join(box().workspacePath, 'dist'), { recursive: true })
    await writeFile(path.join(box().workspacePath, 'dist', 'index.js'), 'built\n')
    const root = await tree()
    expect(root.status).toBe(200)
    const names = root.body.entries.map((entry) => entry.name)
    expect(names).toContain('src')
    expect(names).toContain('package.json')
    for (const hidden of ['node_modules', '.git', 'dist', '.npm', '.cache']) {
      expect(names).not.toContain(hidden)
    }
    expect(root.body.entries.some((entry) => entry.path.includes('/'))).toBe(false)
    const firstFile = root.body.entries.findIndex((entry) => entry.type === 'file')
    expect(root.body.entries.slice(firstFile).every((entry) => entry.type === 'file')).toBe(true)
    const source = await tree('src')
    expect(source.body.path).toBe('src')
    expect(source.body.entries).toContainEqual(
      expect.objectContaining({ name: 'App.tsx', path: 'src/App.tsx', type: 'file' }),
    )
  })

  it('opens a file with its hash and saves it through the box', async () => {
    const opened = await open('src/App.tsx')
    expect(opened.status).toBe(200)
    expect(opened.body).toMatchObject({ path: 'src/App.tsx', readOnly: false })
    expect(opened.body.content.length).toBeGreaterThan(0)
    const content = `${opened.body.content}\n// edited by hand\n`
    const saved = await save({ path: 'src/App.tsx', content, baseHash: opened.body.hash })
    expect(saved.status).toBe(200)
    expect(saved.body.hash).not.toBe(opened.body.hash)
    expect(await box().files.read('src/App.tsx')).toBe(content)
    expect((await open('src/App.tsx')).body.hash).toBe(saved.body.hash)
    expect(hasPendingHandEdits(chat.applicationId)).toBe(true)
  })

  it('answers 409 when the file changed since it was opened, and overwrites when asked', async () => {
    const opened = await open('src/App.tsx')
    await box().files.write('src/App.tsx', 'export default function App() { return null }\n')
    const refused = await save({
      path: 'src/App.tsx',
      content: 'mine\n',
      baseHash: opened.body.hash,
    })
    expect(refused).toEqual({ status: 409, body: { error: SAVE_CONFLICT } })
    expect(await box().files.read('src/App.tsx')).toContain('return null')
    const overwritten = await save({
      path: 'src/App.tsx',
      content: opened.body.content,
      baseHash: opened.body.hash,
      overwrite: true,
    })
    expect(overwritten.status).toBe(200)
    expect(await box().files.read('src/App.tsx')).toBe(opened.body.content)
  })

  it('becomes an "Edited by" version once saves stop', async () => {
    expect((await versions()).versions[0]?.kind).not.toBe('edit')
    // The edit is committed 15 s after the last Save (edit-versions.ts).
    const deadline = Date.now() + 40_000
    while ((await versions()).versions[0]?.kind !== 'edit' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect(hasPendingHandEdits(chat.applicationId)).toBe(false)
    const page = await versions()
    expect(page.versions[0]).toMatchObject({
      kind: 'edit',
      title: `Edited by ${chat.actor.user.email.split('@')[0]}: src/App.tsx`,
      author: { id: chat.actor.user.id },
      files: [expect.objectContaining({ path: 'src/App.tsx', status: 'modified' })],
    })
  })

  it('commits the hand edits before the next run, which is told the files', async () => {
    const saved = await save({ path: 'src/Notes.md', content: '# Notes\n' })
    expect(saved.status).toBe(200)
    chat.fake.push({ blocks: [{ type: 'text', text: 'I see your notes.' }] })
    const sent = await sendMessage(chat, { message: 'What did I change?', model })
    conversationId = sent.conversation_id
    await listenToConversation(chat, sent.conversation_id)
    const system = JSON.stringify(
      (chat.fake.requests.at(-1)?.body as { system?: unknown } | undefined)?.system,
    )
    expect(system).toContain('The user edited these files by hand: src/Notes.md.')
    expect(hasPendingHandEdits(chat.applicationId)).toBe(false)
    expect((await versions()).versions[0]).toMatchObject({
      kind: 'edit',
      title: expect.stringMatching(/^Edited by .+: src\/Notes\.md$/),
    })
  })

  it('commits the saves a crashed process left as their version before the next run', async () => {
    // What a process that died within the quiet time leaves: the file written, its save's row.
    await box().files.write('src/Crash.md', '# Saved before a crash\n')
    await chat.harness.created.db.insert(appHandEdits).values({
      applicationId: chat.applicationId,
      path: 'src/Crash.md',
      editorId: chat.actor.user.id,
      editorName: 'Crash Tester',
    })
    expect(hasPendingHandEdits(chat.applicationId)).toBe(false)
    chat.fake.push({ blocks: [{ type: 'text', text: 'Noted.' }] })
    const sent = await sendMessage(chat, { message: 'Anything new?', model, conversationId })
    await chat.harness.created.conversations.runs.settled(sent.conversation_id)
    expect((await versions()).versions[0]).toMatchObject({
      kind: 'edit',
      title: 'Edited by Crash Tester: src/Crash.md',
    })
    const left = await chat.harness.created.db.select().from(appHandEdits)
    expect(left.filter((row) => row.applicationId === chat.applicationId)).toEqual([])
  })

  it('commits hand edits saved just before a restore as their own version, with their note', async () => {
    const saved = await save({ path: 'src/Later.md', content: '# Later\n' })
    expect(saved.status).toBe(200)
    const target = (await versions()).versions.at(-1)
    const restored = await call<{ version: { title: string } }>(
      chat.actor,
      `/api/applications/${chat.applicationId}/versions/${target?.id}/restore`,
      {},
      'POST',
    )
    expect(restored.status).toBe(200)
    expect(hasPendingHandEdits(chat.applicationId)).toBe(false)
    const [restore, edit] = (await versions()).versions
    expect(restore).toMatchObject({ kind: 'restore', restoredNumber: target?.number })
    expect(edit).toMatchObject({ kind: 'edit', title: expect.stringMatching(/: src\/Later\.md$/) })
  })

  it('is read-only while a run is active: opening says so, Save answers 409', async () => {
    chat.fake.push({ blocks: [{ type: 'text', text: 'Thinking…' }], holdOpen: true })
    const sent = await sendMessage(chat, { message: 'Take your time', model, conversationId })
    const opened = await open('src/App.tsx')
    expect(opened.body.readOnly).toBe(true)
    const refused = await save({ path: 'src/App.tsx', content: 'mine\n' })
    expect(refused).toEqual({ status: 409, body: { error: SAVE_DURING_RUN } })
    expect(await box().files.read('src/App.tsx')).toBe(opened.body.content)
    await call(chat.actor, `/api/demo/applications/${chat.applicationId}/interrupt`, {
      conversation_id: sent.conversation_id,
    })
    await listenToConversation(chat, sent.conversation_id)
    await chat.harness.created.conversations.runs.settled(sent.conversation_id)
    expect((await open('src/App.tsx')).body.readOnly).toBe(false)
  })

  it('refuses paths outside the workspace, links, .git and binary files in every call', async () => {
    const workspace = box().workspacePath
    await symlink('/etc', path.join(workspace, 'etc-link'))
    await symlink('/etc/hostname', path.join(workspace, 'host-link'))
    await writeFile(path.join(workspace, 'image.bin'), Buffer.from([0, 1, 2, 255, 0]))
    const configBefore = await gitConfig()
    const attacks = [
      '../outside.txt',
      '../../etc/passwd',
      '/etc/passwd',
      'src/\0x',
      'src/%2e%2e/%2e%2e/x',
      'etc-link/passwd',
      'host-link',
      '.git/config',
      '.GIT/hooks/pre-commit',
      'src/../.git/config',
    ]
    for (const attack of attacks) {
      const listed = await tree(attack)
      expect(listed.status, `tree ${attack}`).toBeGreaterThanOrEqual(400)
      expect(listed.status, `tree ${attack}`).toBeLessThan(500)
      const opened = await open(attack)
      expect(opened.status, `open ${attack}`).toBeGreaterThanOrEqual(400)
      expect(opened.status, `open ${attack}`).toBeLessThan(500)
      const saved = await save({ path: attack, content: '[core]\n\thooksPath = /tmp\n' })
      expect(saved.status, `save ${attack}`).toBeGreaterThanOrEqual(400)
      expect(saved.status, `save ${attack}`).toBeLessThan(500)
    }
    expect((await open('.git/config')).body).toEqual({ error: GIT_FOLDER_REFUSED })
    expect((await open('image.bin')).body).toEqual({ error: BINARY_FILE_REFUSED })
    expect(await gitConfig()).toBe(configBefore)
    const outside = await box().exec('ls ..', { timeoutSeconds: 10 })
    expect(outside.output).not.toContain('outside.txt')
  })

  it('refuses a name over 255 bytes (multi-byte characters counted in bytes) with 400 and the limit', async () => {
    // 86 characters, 258 bytes: under every character limit, over Linux's NAME_MAX.
    const name = '€'.repeat(86)
    for (const attack of [name, `src/${name}`, `src/${name}/App.tsx`]) {
      for (const answer of [
        await tree(attack),
        await open(attack),
        await save({ path: attack, content: 'x' }),
      ]) {
        expect(answer.status, attack).toBe(400)
        expect(JSON.stringify(answer.body)).toContain('at most 255 bytes')
      }
    }
    expect((await tree('src')).body.entries.map((entry) => entry.name)).not.toContain(name)
  })

  it('refuses malformed bodies with 400 and changes nothing', async () => {
    const before = await box().files.read('src/App.tsx')
    for (const body of [
      { path: 'src/App.tsx' },
      { path: 'src/App.tsx', content: 1 },
      { path: 'src/App.tsx', content: 'x', extra: true },
      { path: '', content: 'x' },
      { path: 'a'.repeat(2000), content: 'x' },
      { path: 'src/App.tsx', content: 'x', baseHash: 'h'.repeat(500) },
      [],
    ]) {
      expect((await save(body)).status, JSON.stringify(body).slice(0, 80)).toBe(400)
    }
    const huge = await save({ path: 'src/App.tsx', content: 'x'.repeat(3 * 1024 * 1024) })
    expect(huge.status).toBeGreaterThanOrEqual(400)
    expect(huge.status).toBeLessThan(500)
    expect(await box().files.read('src/App.tsx')).toBe(before)
    expect((await call(chat.actor, `${base()}/content`)).status).toBe(400)
  })

  it('answers 404 for another organization and its apps; 403 for a non-member', async () => {
    const outsider = await chat.harness.signUp()
    const outsiderOrganization = await chat.harness.createOrganization(outsider)
    const asOutsider = {
      harness: chat.harness,
      user: outsider,
      organizationId: outsiderOrganization,
    }
    const before = await box().files.read('src/App.tsx')
    expect((await call(asOutsider, base())).status).toBe(404)
    expect((await call(asOutsider, `${base()}/content?path=src/App.tsx`)).status).toBe(404)
    const write = await call(
      asOutsider,
      `${base()}/content`,
      { path: 'src/App.tsx', content: 'stolen\n' },
      'PUT',
    )
    expect(write.status).toBe(404)
    const inOrganizationA = { ...asOutsider, organizationId: chat.actor.organizationId }
    expect((await call(inOrganizationA, base())).status).toBe(403)
    expect(
      (await call(inOrganizationA, `${base()}/content`, { path: 'a', content: 'b' }, 'PUT')).status,
    ).toBe(403)
    expect(await box().files.read('src/App.tsx')).toBe(before)
    expect((await call(chat.actor, '/api/applications/nope/files')).status).toBe(404)
  })
})
