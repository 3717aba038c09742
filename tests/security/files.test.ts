import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Devbox, DevboxDriver } from '@sprout/devbox/devbox-driver.ts'
import { createTestServerDriver } from '@sprout/devbox/drivers/kubernetes/testing/test-server-driver.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  confinedSuite,
  createTestDriver,
  fullConfinementMissing,
  runToolCalls,
  type ToolCall,
} from './support.ts'

const canary = 'CANARY-OUTSIDE-THE-WORKSPACE-7f3a'

type Setup = { driver: DevboxDriver; baseDirectory: string; close: () => Promise<void> }

/**
 * App code inside the box swaps files and folders for links to the server's files while the
 * agent's real tools, driven by a scripted model, work on the same paths: nothing leaks out.
 * This probe assumes only a box, so it runs against both drivers: local boxes, and pods whose
 * files the in-box agent serves (decision 040; the test kubelet's pods see this machine's files,
 * so the agent's path rules are all that stands between the racer and the canary).
 */
const drivers: { title: string; skip: boolean; create: () => Promise<Setup> }[] = [
  {
    title: confinedSuite('file tools against a racing box'),
    skip: fullConfinementMissing !== undefined,
    create: () => createTestDriver(),
  },
  {
    title: 'file tools against a racing box, as a pod (test API server)',
    skip: false,
    create: () => createTestServerDriver(),
  },
]

for (const { title, skip, create } of drivers)
  describe.skipIf(skip)(title, () => {
    let setup: Setup
    let box: Devbox
    let outside: string

    beforeAll(async () => {
      setup = await create()
      outside = path.join(setup.baseDirectory, 'server-files')
      await mkdir(path.join(outside, 'folder'), { recursive: true })
      await writeFile(path.join(outside, 'secret.txt'), canary)
      await writeFile(path.join(outside, 'folder', 'note.txt'), canary)
      box = await setup.driver.provision('vite-react')
    }, 60_000)
    afterAll(async () => {
      await setup?.close()
    })

    it('1,000 tool calls during the swaps: no canary, nothing outside changed', async () => {
      const racer = new AbortController()
      // The racer is app code: it runs in the box as its uid, and only names the server's paths.
      const racing = box.exec(
        [
          'mkdir -p folder/sub',
          'while :; do',
          `  ln -sfn ${outside}/secret.txt file.txt; rm -f file.txt; echo mine > file.txt`,
          `  mv folder folder.away 2>/dev/null; ln -sfn ${outside}/folder folder; rm -f folder`,
          '  mv folder.away folder 2>/dev/null; mkdir -p folder/sub',
          `  ln -sfn ${outside}/folder folder/sub2; rm -f folder/sub2`,
          `  ln -sfn ${outside}/secret.txt folder/note.txt; rm -f folder/note.txt; echo note > folder/note.txt`,
          'done',
        ].join('\n'),
        { timeoutSeconds: 120, signal: racer.signal },
      )
      const round: ToolCall[] = [
        { name: 'view_file', input: { path: 'file.txt' } },
        { name: 'view_file', input: { path: 'folder/note.txt' } },
        { name: 'search', input: { pattern: 'CANARY' } },
        { name: 'search', input: { pattern: 'CANARY', path: 'folder' } },
        { name: 'list_files', input: { path: 'folder' } },
        { name: 'write_file', input: { path: 'folder/sub/written.txt', content: 'agent' } },
        { name: 'str_replace', input: { path: 'file.txt', old_str: 'mine', new_str: 'mine' } },
        { name: 'delete_file', input: { path: 'folder/sub/written.txt' } },
      ]
      const outputs: string[] = []
      try {
        for (let step = 0; step < 5; step++) {
          outputs.push(...(await runToolCalls(box, Array.from({ length: 25 }, () => round).flat())))
        }
      } finally {
        racer.abort()
        await racing
      }
      expect(outputs.length).toBeGreaterThanOrEqual(1000)
      for (const output of outputs) expect(output).not.toContain(canary)
      expect((await readdir(outside)).sort()).toEqual(['folder', 'secret.txt'])
      expect(await readdir(path.join(outside, 'folder'))).toEqual(['note.txt'])
      expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe(canary)
      expect(await readFile(path.join(outside, 'folder', 'note.txt'), 'utf8')).toBe(canary)
    }, 180_000)
  })
