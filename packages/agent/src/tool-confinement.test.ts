import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import { createLocalDriver, type LocalDriver } from '@sprout/devbox/drivers/local/local-driver.ts'
import {
  createFakeTemplates,
  hasBubblewrap,
  testCacheDir,
} from '@sprout/devbox/testing/devbox-support.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runToolCalls as runScriptedToolCalls, type ToolCall } from './testing/run-tool-calls.ts'

const secret = 'TOP-SECRET-OUTSIDE-THE-WORKSPACE'

/**
 * The dev-box confinement corpus, driven through the agent's tools by a scripted model: every
 * call that reaches outside the workspace fails with a clear error and reads or writes nothing.
 */
describe('tools stay inside the workspace', () => {
  let root: string
  let outside: string
  let driver: LocalDriver
  let box: Devbox
  let other: Devbox

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'sprout-confinement-'))
    outside = path.join(root, 'outside')
    await mkdir(outside, { recursive: true })
    await writeFile(path.join(outside, 'secret.txt'), secret)
    driver = createLocalDriver({
      rootDir: path.join(root, 'devboxes'),
      templatesDir: await createFakeTemplates(path.join(root, 'templates')),
      cacheDir: testCacheDir,
    })
    box = await driver.provision('vite-react')
    other = await driver.provision('vite-react')
    await other.files.write('private.txt', secret)
    const workspace = box.workspacePath
    await symlink(path.join(outside, 'secret.txt'), path.join(workspace, 'link-to-secret'))
    await symlink(path.join(outside, 'missing.txt'), path.join(workspace, 'dangling'))
    await symlink(outside, path.join(workspace, 'linked-dir'))
  }, 60_000)
  afterAll(async () => {
    await driver.shutdown()
    await rm(root, { recursive: true, force: true })
  })

  const escapes = () => [
    { name: 'write_file', input: { path: '../escape.txt', content: 'x' } },
    { name: 'write_file', input: { path: path.join(outside, 'escape.txt'), content: 'x' } },
    { name: 'write_file', input: { path: '%2e%2e%2fescape.txt', content: 'x' } },
    { name: 'write_file', input: { path: 'src%2f..%2f..%2fescape.txt', content: 'x' } },
    { name: 'write_file', input: { path: 'a\u0000b.txt', content: 'x' } },
    { name: 'write_file', input: { path: 'link-to-secret', content: 'x' } },
    { name: 'write_file', input: { path: 'dangling', content: 'x' } },
    { name: 'write_file', input: { path: 'linked-dir/escape.txt', content: 'x' } },
    { name: 'view_file', input: { path: '../../outside/secret.txt' } },
    { name: 'view_file', input: { path: path.join(outside, 'secret.txt') } },
    { name: 'view_file', input: { path: 'link-to-secret' } },
    { name: 'view_file', input: { path: 'linked-dir/secret.txt' } },
    { name: 'view_file', input: { path: `${other.workspacePath}/private.txt` } },
    { name: 'str_replace', input: { path: 'link-to-secret', old_str: 'TOP', new_str: 'x' } },
    { name: 'delete_file', input: { path: 'linked-dir/secret.txt' } },
    { name: 'delete_file', input: { path: '../outside/secret.txt' } },
    { name: 'list_files', input: { path: '..' } },
    { name: 'list_files', input: { path: 'linked-dir' } },
    { name: 'search', input: { pattern: 'TOP-SECRET', path: '..' } },
    { name: 'search', input: { pattern: 'TOP-SECRET', path: 'linked-dir' } },
  ]

  const runToolCalls = (calls: ToolCall[]) => runScriptedToolCalls(box, calls)

  test('refuses every path outside the workspace, and nothing outside changes', async () => {
    const calls = escapes()
    const log = await runToolCalls(calls)
    const errors = log.chunks.filter((chunk) => chunk.type === 'tool-output-error')
    expect(errors).toHaveLength(calls.length)
    for (const error of errors) {
      expect(JSON.stringify(error)).toMatch(
        /outside|refused|not allowed|invalid|symbolic|NUL|path/i,
      )
    }
    expect(JSON.stringify(log.chunks)).not.toContain(secret)
    expect(await readdir(outside)).toEqual(['secret.txt'])
    expect(existsSync(path.join(box.workspacePath, '..', 'escape.txt'))).toBe(false)
    expect(await other.files.read('private.txt')).toBe(secret)
  })

  test.skipIf(!hasBubblewrap)(
    'keeps shell commands away from other workspaces and hidden folders',
    async () => {
      const command = `cat ${other.workspacePath}/private.txt; cat ${outside}/secret.txt; ls ${path.dirname(other.workspacePath)}`
      const log = await runToolCalls([{ name: 'shell_exec', input: { command } }])
      const output = JSON.stringify(
        log.chunks.filter((chunk) => chunk.type === 'tool-output-available'),
      )
      expect(output).toContain('No such file or directory')
      expect(output).not.toContain(secret)
    },
  )
})
