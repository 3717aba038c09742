import { execFile } from 'node:child_process'
import { readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { copyFullStackStarter } from '@sprout/devbox/testing/starter-copy.ts'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { runAgent } from '../run-agent.ts'
import { collectChunks } from '../testing/collect-chunks.ts'
import { demoRun } from '../testing/demo-run.ts'
import { createTempFolderDevbox, type TempFolderDevbox } from '../testing/temp-folder-devbox.ts'
import {
  membersNotesClientPath,
  membersNotesMigrationPath,
  membersNotesServerPath,
} from './demo-members-notes.ts'

const execFileAsync = promisify(execFile)

let devbox: TempFolderDevbox
let starter: string | undefined
beforeEach(async () => {
  devbox = await createTempFolderDevbox()
})
afterEach(async () => {
  await devbox.remove()
  if (starter) await rm(starter, { recursive: true, force: true })
})

test('"a members-only notes app" is built on the auth kit, and type-checks and builds as the starter', {
  timeout: 120_000,
}, async () => {
  const log = collectChunks()
  const result = await runAgent({
    ...demoRun(),
    messages: [{ role: 'user', content: 'Build a members-only notes app for our club' }],
    toolContext: { devbox },
    onChunk: log.onChunk,
  })
  expect(result.error).toBeUndefined()
  const written = log
    .ofType('tool-input-available')
    .filter((chunk) => chunk.toolName === 'write_file')
    .map((chunk) => (chunk.input as { path: string }).path)
  const files = [membersNotesMigrationPath, membersNotesServerPath, membersNotesClientPath]
  expect(written).toEqual(files)
  const server = await devbox.files.read(membersNotesServerPath)
  expect(server).toContain('mountAuthKit(app)')
  expect(server).toContain("app.delete('/member-notes/:id', requireAppRole('admin')")

  // What the Demo wrote, in the real starter: the agent's own check would run the same.
  starter = await copyFullStackStarter('sprout-members-notes-')
  for (const file of files) {
    await writeFile(path.join(starter, file), await devbox.files.read(file))
  }
  const run = (args: string[]) =>
    execFileAsync(process.execPath, args, {
      cwd: starter,
      env: { PATH: process.env.PATH ?? '', HOME: starter },
    })
  await run(['node_modules/typescript/bin/tsc', '--noEmit'])
  await run(['node_modules/vite/bin/vite.js', 'build'])
  await run(['node_modules/vite/bin/vite.js', 'build', '--ssr', 'server/main.ts'])
  expect(await readFile(path.join(starter, 'dist/server/index.js'), 'utf8')).toContain(
    'member_notes',
  )
})
