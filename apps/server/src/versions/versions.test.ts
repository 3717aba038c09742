// Long file: an app's versions over real HTTP, a real dev box and a fake Anthropic server; the
// scenarios build on each other in order (docs/product/versions.md).

import { requestDevServer } from '@sprout/devbox/dev-server-request.ts'
import {
  DIFF_FILE_COLLAPSE_LINES,
  DIFF_FILE_MAX_BYTES,
  type Version,
  type VersionDiff,
  type VersionPage,
} from '@sprout/protocol/api/versions.ts'
import { describe, expect, it } from 'vitest'
import {
  call,
  listenToConversation,
  sendMessage,
  setUpChatApplication,
} from '../testing/chat-client.ts'
import { commitVersion } from './record-version.ts'
import { RESTORE_DURING_RUN } from './restore-version.ts'

const model = 'claude-sonnet-4-5'

describe('versions of an app: recorded, listed, diffed, restored', { timeout: 180_000 }, () => {
  const chat = setUpChatApplication({ maxRetries: 0 })
  const base = () => `/api/applications/${chat.applicationId}/versions`
  const box = () => {
    const found = chat.harness.devboxes.box(chat.applicationId)
    if (!found) throw new Error('no dev box')
    return found
  }
  const list = async (cursor?: string) => {
    const answer = await call<VersionPage>(
      chat.actor,
      `${base()}${cursor ? `?cursor=${cursor}` : ''}`,
    )
    expect(answer.status).toBe(200)
    return answer.body
  }
  const byNumber = async (number: number) => {
    const found = (await list()).versions.find((version) => version.number === number)
    if (!found) throw new Error(`no version ${number}`)
    return found
  }
  const restore = (version: Version, body?: unknown) =>
    call<{ version: Version }>(chat.actor, `${base()}/${version.id}/restore`, body ?? {})
  const read = (path: string) => box().files.read(path)
  let conversationId: string | undefined
  let lastSeq = 0
  const lastSystemPrompt = () =>
    JSON.stringify((chat.fake.requests.at(-1)?.body as { system?: unknown } | undefined)?.system)

  /** A run whose model writes the files, then ends; resolves once it is closed. */
  async function runWriting(message: string, files: Record<string, string>) {
    chat.fake.push(
      {
        blocks: Object.entries(files).map(([path, content]) => ({
          type: 'tool-call' as const,
          name: 'write_file',
          input: { path, content },
        })),
      },
      { blocks: [{ type: 'text', text: 'Done.' }] },
    )
    return sendAndWait(message)
  }

  /** Sends into the test's conversation and waits for that run's end. */
  async function sendAndWait(message: string) {
    const sent = await sendMessage(chat, { message, model, conversationId })
    conversationId = sent.conversation_id
    const envelopes = await listenToConversation(chat, sent.conversation_id, { after: lastSeq })
    lastSeq = envelopes.at(-1)?.seq ?? lastSeq
    // The stream's end comes just before the run's row is closed: a restore waits for the row.
    await chat.harness.created.conversations.runs.settled(sent.conversation_id)
    return sent
  }

  it('records a version for each run that changed files, with its files, author and run', async () => {
    const first = await runWriting('Add a hello page\nwith more words', {
      'src/Hello.tsx': 'export const hello = "v1"\n',
    })
    await runWriting('Change the hello page', {
      'src/Hello.tsx': 'export const hello = "v2"\n',
      'src/Other.tsx': 'export const other = 1\n',
    })
    const page = await list()
    expect(page.total).toBe(3)
    expect(page.versions.map((version) => [version.number, version.kind])).toEqual([
      [3, 'run'],
      [2, 'run'],
      [1, 'start'],
    ])
    const [latest, previous] = page.versions
    expect(previous).toMatchObject({
      title: 'Add a hello page',
      runId: first.run_id,
      conversationId: first.conversation_id,
      author: { id: chat.actor.user.id },
      files: [{ path: 'src/Hello.tsx', status: 'added', added: 1, removed: 0 }],
    })
    expect(latest?.files).toEqual([
      { path: 'src/Hello.tsx', status: 'modified', added: 1, removed: 1 },
      { path: 'src/Other.tsx', status: 'added', added: 1, removed: 0 },
    ])
    const head = await box().exec('git rev-parse HEAD', { timeoutSeconds: 10 })
    expect(latest?.commitId).toBe(head.output.trim())
  })

  it('answers a version diff per file, from git', async () => {
    const latest = await byNumber(3)
    const answer = await call<VersionDiff>(chat.actor, `${base()}/${latest.id}/diff`)
    expect(answer.status).toBe(200)
    const [hello, other] = answer.body.files
    expect(hello).toMatchObject({ path: 'src/Hello.tsx', binary: false, truncated: false })
    expect(hello?.patch).toMatch(/^@@ /)
    expect(hello?.patch).toContain('-export const hello = "v1"\n+export const hello = "v2"')
    expect(hello?.lines).toBe(3)
    expect(other?.patch).toContain('+export const other = 1')
  })

  it('names binary files in a diff and keeps hand edits as versions', async () => {
    await box().exec("printf '\\000\\001\\002' > public/blob.bin", { timeoutSeconds: 10 })
    const edited = await commitVersion(
      { db: chat.harness.database.db, box: box() },
      {
        applicationId: chat.applicationId,
        kind: 'edit',
        title: 'Edited by Owner: public/blob.bin',
      },
    )
    expect(edited).toMatchObject({ number: 4, kind: 'edit' })
    expect(edited?.files).toEqual([
      { path: 'public/blob.bin', status: 'added', added: null, removed: null },
    ])
    const answer = await call<VersionDiff>(chat.actor, `${base()}/${edited?.id}/diff`)
    expect(answer.body.files).toEqual([
      expect.objectContaining({ path: 'public/blob.bin', binary: true, patch: '', lines: 0 }),
    ])
  })

  it('restores a version as a new one with its files; the later ones stay; a restore is restored', async () => {
    const answer = await restore(await byNumber(2))
    expect(answer.status).toBe(200)
    expect(answer.body.version).toMatchObject({
      number: 5,
      kind: 'restore',
      title: 'Restored version 2',
      restoredNumber: 2,
      author: { id: chat.actor.user.id },
    })
    expect(await read('src/Hello.tsx')).toBe('export const hello = "v1"\n')
    await expect(read('src/Other.tsx')).rejects.toThrow()
    expect((await list()).versions.map((version) => version.number)).toEqual([5, 4, 3, 2, 1])

    const served = async () => {
      const target = chat.harness.devboxes.devServerTarget(chat.applicationId)
      return target
        ? (await requestDevServer(target, '/src/Hello.tsx').catch(() => undefined))?.body
        : ''
    }
    const back = await restore(await byNumber(4))
    expect(back.body.version).toMatchObject({ number: 6, restoredNumber: 4 })
    expect(await read('src/Hello.tsx')).toBe('export const hello = "v2"\n')
    expect(await read('src/Other.tsx')).toBe('export const other = 1\n')
    await expect.poll(served, { timeout: 20_000 }).toContain('"v2"')
    const again = await restore(await byNumber(5))
    expect(again.body.version).toMatchObject({ number: 7, restoredNumber: 5 })
    expect(await read('src/Hello.tsx')).toBe('export const hello = "v1"\n')
    // The preview's dev server serves the restored code.
    await expect.poll(served, { timeout: 20_000 }).toContain('"v1"')
  })

  it('tells the next run what was restored, once', async () => {
    chat.fake.push({ blocks: [{ type: 'text', text: 'Noted.' }] })
    await sendAndWait('What changed?')
    const system = lastSystemPrompt()
    expect(system).toContain('The user restored version 2.')
    expect(system).toContain('The user restored version 4.')
    expect(system).toContain('The user restored version 5.')
    chat.fake.push({ blocks: [{ type: 'text', text: 'Still noted.' }] })
    await sendAndWait('And now?')
    const next = lastSystemPrompt()
    expect(next).not.toContain('The user restored version')
  })

  it('commits uncommitted changes as their own version before restoring: nothing is lost', async () => {
    await box().files.write('src/Hand.tsx', 'export const mine = true\n')
    const answer = await restore(await byNumber(3))
    expect(answer.status).toBe(200)
    const saved = await byNumber(answer.body.version.number - 1)
    expect(saved).toMatchObject({
      kind: 'edit',
      title: 'Uncommitted changes before restoring version 3',
      files: [{ path: 'src/Hand.tsx', status: 'added' }],
    })
    await expect(read('src/Hand.tsx')).rejects.toThrow()
    await restore(saved)
    expect(await read('src/Hand.tsx')).toBe('export const mine = true\n')
  })

  it('refuses a restore while a run is active, and changes nothing', async () => {
    chat.fake.push({ blocks: [{ type: 'text', text: 'Thinking…' }], holdOpen: true })
    const sent = await sendMessage(chat, { message: 'Take your time', model, conversationId })
    const before = await list()
    const refused = await restore(await byNumber(2))
    expect(refused).toEqual({ status: 409, body: { error: RESTORE_DURING_RUN } })
    expect((await list()).total).toBe(before.total)
    await call(chat.actor, `/api/demo/applications/${chat.applicationId}/interrupt`, {
      conversation_id: sent.conversation_id,
    })
    const envelopes = await listenToConversation(chat, sent.conversation_id, { after: lastSeq })
    lastSeq = envelopes.at(-1)?.seq ?? lastSeq
  })

  it('restores the preview database with the code when asked', async () => {
    const sql = (statement: string) =>
      box().exec('node -e "$SCRIPT"', {
        timeoutSeconds: 30,
        env: {
          SCRIPT: `const { DatabaseSync } = require('node:sqlite')
const db = new DatabaseSync(process.env.DATABASE_URL.replace(/^file:/, ''))
db.exec(process.env.STATEMENT)
console.log(JSON.stringify(db.prepare('SELECT name FROM restore_rows ORDER BY name').all().map((row) => row.name)))`,
          STATEMENT: statement,
        },
      })
    expect(
      (
        await sql(
          "CREATE TABLE IF NOT EXISTS restore_rows (name TEXT); INSERT INTO restore_rows VALUES ('first')",
        )
      ).output,
    ).toContain('["first"]')
    await box().files.write('src/Data.tsx', 'export const data = 1\n')
    const withFirst = await commitVersion(
      { db: chat.harness.database.db, box: box() },
      { applicationId: chat.applicationId, kind: 'edit', title: 'Edited by Owner: src/Data.tsx' },
    )
    expect(withFirst?.hasDataSnapshot).toBe(true)
    expect((await sql("INSERT INTO restore_rows VALUES ('second')")).output).toContain(
      '["first","second"]',
    )
    await box().files.write('src/Data.tsx', 'export const data = 2\n')
    const withoutData = await restore(withFirst as Version, { restoreData: false })
    expect(withoutData.status).toBe(200)
    expect((await sql('SELECT 1')).output).toContain('["first","second"]')
    const withData = await restore(withFirst as Version, { restoreData: true })
    expect(withData.status).toBe(200)
    expect((await sql('SELECT 1')).output).toContain('["first"]')
    expect((await sql('SELECT 1')).output).not.toContain('second')
  })

  it('pages the list newest first', async () => {
    const all = await list()
    expect(all.nextCursor).toBeNull()
    const second = await list(String(all.versions[2]?.number))
    expect(second.versions.map((version) => version.number)).toEqual(
      all.versions.slice(3).map((version) => version.number),
    )
    expect(second.total).toBe(all.total)
  })

  it('answers 404 for another organization, another app and unknown ids; 400 for bad input', async () => {
    const version = await byNumber(2)
    const outsider = await chat.harness.signUp()
    const outsiderOrganization = await chat.harness.createOrganization(outsider)
    const asOutsider = {
      harness: chat.harness,
      user: outsider,
      organizationId: outsiderOrganization,
    }
    for (const path of [base(), `${base()}/${version.id}/diff`]) {
      expect((await call(asOutsider, path)).status).toBe(404)
    }
    expect((await call(asOutsider, `${base()}/${version.id}/restore`, {})).status).toBe(404)
    // The outsider asking in organization A, of which they are not a member.
    const inOrganizationA = { ...asOutsider, organizationId: chat.actor.organizationId }
    expect((await call(inOrganizationA, base())).status).toBe(403)
    const other = await call<{ id: string }>(chat.actor, '/api/applications', {
      initial_prompt: 'Another app',
      model: 'demo',
    })
    const otherBase = `/api/applications/${other.body.id}/versions`
    expect((await call(chat.actor, `${otherBase}/${version.id}/diff`)).status).toBe(404)
    expect((await call(chat.actor, `${otherBase}/${version.id}/restore`, {})).status).toBe(404)
    expect(
      (await call(chat.actor, `${base()}/00000000-0000-0000-0000-000000000000/diff`)).status,
    ).toBe(404)
    for (const id of ['nope', '%00', '%ED%A0%80', 'a'.repeat(300)]) {
      const status = (await call(chat.actor, `${base()}/${id}/diff`)).status
      expect([400, 404]).toContain(status)
    }
    const before = (await list()).total
    expect((await call(chat.actor, `${base()}?cursor=abc`)).status).toBe(400)
    expect((await restore(version, { restoreData: 'yes' })).status).toBe(400)
    expect((await restore(version, { restoreData: true, extra: 1 })).status).toBe(400)
    expect((await restore(version, { note: '\ud800' })).status).toBe(400)
    const start = await byNumber(1)
    expect(start.hasDataSnapshot).toBe(false)
    expect(await restore(start, { restoreData: true })).toEqual({
      status: 422,
      body: { error: "This version has no copy of the preview's data to restore." },
    })
    const huge = await restore(version, { restoreData: false, padding: 'x'.repeat(3_000_000) })
    expect(huge.status).toBeGreaterThanOrEqual(400)
    expect(huge.status).toBeLessThan(500)
    expect((await list()).total).toBe(before)
  })

  it("records the Demo model's build as a version", async () => {
    const sent = await sendMessage(chat, { message: 'Build a recipe tracker', model: 'demo' })
    await listenToConversation(chat, sent.conversation_id)
    const [latest] = (await list()).versions
    expect(latest).toMatchObject({
      kind: 'run',
      title: 'Build a recipe tracker',
      runId: sent.run_id,
      conversationId: sent.conversation_id,
    })
    expect(latest?.files.map((file) => file.path)).toContain('src/App.tsx')
  })

  it("cuts a file's patch past 512 KiB, on a whole line", async () => {
    await box().exec('seq 1 120000 | sed "s/^/line /" > src/big.txt', { timeoutSeconds: 30 })
    const big = await commitVersion(
      { db: chat.harness.database.db, box: box() },
      { applicationId: chat.applicationId, kind: 'edit', title: 'Edited by Owner: src/big.txt' },
    )
    const answer = await call<VersionDiff>(chat.actor, `${base()}/${big?.id}/diff`)
    const [file] = answer.body.files
    expect(file).toMatchObject({ path: 'src/big.txt', truncated: true, added: 120_000 })
    expect(Buffer.byteLength(file?.patch ?? '')).toBeLessThanOrEqual(DIFF_FILE_MAX_BYTES)
    expect(file?.patch.endsWith('\n')).toBe(true)
    expect(file?.lines).toBeGreaterThan(DIFF_FILE_COLLAPSE_LINES)
  })
})
