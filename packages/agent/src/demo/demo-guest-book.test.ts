import { afterEach, beforeEach, expect, test } from 'vitest'
import { runAgent } from '../run-agent.ts'
import { collectChunks } from '../testing/collect-chunks.ts'
import { demoRun } from '../testing/demo-run.ts'
import { createTempFolderDevbox, type TempFolderDevbox } from '../testing/temp-folder-devbox.ts'
import {
  guestBookClientPath,
  guestBookMigrationPath,
  guestBookServerPath,
} from './demo-guest-book.ts'

let devbox: TempFolderDevbox
beforeEach(async () => {
  devbox = await createTempFolderDevbox()
})
afterEach(() => devbox.remove())

test('"a guest book" gets a migration, server routes and a page that calls them', async () => {
  const log = collectChunks()
  const result = await runAgent({
    ...demoRun(),
    messages: [{ role: 'user', content: 'Build a guest book where visitors leave a message' }],
    toolContext: { devbox },
    onChunk: log.onChunk,
  })
  const calls = log.ofType('tool-input-available')
  const written = calls
    .filter((chunk) => chunk.toolName === 'write_file')
    .map((chunk) => (chunk.input as { path: string }).path)
  expect(written).toEqual([guestBookMigrationPath, guestBookServerPath, guestBookClientPath])
  expect(log.ofType('tool-output-available').length).toBe(calls.length)

  const migration = await devbox.files.read(guestBookMigrationPath)
  expect(migration).toContain('create table guest_book_entries')
  const server = await devbox.files.read(guestBookServerPath)
  expect(server).toContain("app.get('/health'")
  expect(server).toContain("app.post('/entries'")
  const client = await devbox.files.read(guestBookClientPath)
  expect(client).toContain("fetch('/api/entries'")
  expect(client).toContain('export function App()')

  expect(result.error).toBeUndefined()
  const text = log
    .ofType('text-delta')
    .map((chunk) => chunk.delta)
    .join('')
  expect(text).toContain('The **Guest Book** keeps its entries in the app database')
})
