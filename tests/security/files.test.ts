import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Devbox, DevboxDriver } from '@sprout/devbox/devbox-driver.ts'
import {
  createClusterDriver,
  onCluster,
} from '@sprout/devbox/drivers/kubernetes/testing/cluster-driver.ts'
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

/** The canary's folder: on the server's disk, or in the pod (a real cluster's boxes see none of it). */
type Outside = {
  path: string
  plant: () => Promise<void>
  /** Its files' names and contents, to compare before and after. */
  state: () => Promise<string>
}

const onServer = (baseDirectory: string): Outside => {
  const folder = path.join(baseDirectory, 'server-files')
  return {
    path: folder,
    plant: async () => {
      await mkdir(path.join(folder, 'folder'), { recursive: true })
      await writeFile(path.join(folder, 'secret.txt'), canary)
      await writeFile(path.join(folder, 'folder', 'note.txt'), canary)
    },
    state: async () =>
      JSON.stringify([
        (await readdir(folder)).sort(),
        await readdir(path.join(folder, 'folder')),
        await readFile(path.join(folder, 'secret.txt'), 'utf8'),
        await readFile(path.join(folder, 'folder', 'note.txt'), 'utf8'),
      ]),
  }
}

const inBox = (box: Devbox): Outside => {
  const folder = '/tmp/sprout-canary'
  const run = async (command: string) => (await box.exec(command, { timeoutSeconds: 60 })).output
  return {
    path: folder,
    plant: async () => {
      await run(
        `mkdir -p ${folder}/folder && printf ${canary} > ${folder}/secret.txt && printf ${canary} > ${folder}/folder/note.txt`,
      )
    },
    state: () =>
      run(`ls ${folder} ${folder}/folder; cat ${folder}/secret.txt ${folder}/folder/note.txt`),
  }
}

/**
 * App code inside the box swaps files and folders for links to files outside its workspace while
 * the agent's real tools, driven by a scripted model, work on the same paths: nothing leaks out.
 * This probe assumes only a box, so it runs against both drivers: local boxes, and pods whose
 * files the in-box agent serves (decision 040; the test kubelet's pods see this machine's files,
 * so the agent's path rules are all that stands between the racer and the canary), and under
 * `npm run test:kubernetes` against a real cluster's pods, with the canary in the pod.
 */
const drivers: {
  title: string
  skip: boolean
  create: () => Promise<Setup>
  outside: (setup: Setup, box: Devbox) => Outside
}[] = [
  {
    title: confinedSuite('file tools against a racing box'),
    skip: fullConfinementMissing !== undefined,
    create: () => createTestDriver(),
    outside: (setup) => onServer(setup.baseDirectory),
  },
  {
    title: 'file tools against a racing box, as a pod (test API server)',
    skip: false,
    create: () => createTestServerDriver(),
    outside: (setup) => onServer(setup.baseDirectory),
  },
  {
    title: "file tools against a racing box, as a pod (KUBECONFIG's cluster)",
    skip: !onCluster,
    create: async () => {
      const driver = createClusterDriver()
      return { driver, baseDirectory: '', close: () => driver.shutdown() }
    },
    outside: (_setup, box) => inBox(box),
  },
]

for (const { title, skip, create, outside: outsideOf } of drivers)
  describe.skipIf(skip)(title, () => {
    let setup: Setup
    let box: Devbox
    let outside: Outside
    let before = ''

    beforeAll(async () => {
      setup = await create()
      box = await setup.driver.provision('vite-react')
      outside = outsideOf(setup, box)
      await outside.plant()
      before = await outside.state()
    }, 300_000)
    afterAll(async () => {
      if (box) await setup?.driver.destroy(box.id).catch(() => undefined)
      await setup?.close()
    })

    it('1,000 tool calls during the swaps: no canary, nothing outside changed', async () => {
      const racer = new AbortController()
      // The racer is app code: it runs in the box as its uid, and only names the server's paths.
      const racing = box.exec(
        [
          'mkdir -p folder/sub',
          'while :; do',
          `  ln -sfn ${outside.path}/secret.txt file.txt; rm -f file.txt; echo mine > file.txt`,
          `  mv folder folder.away 2>/dev/null; ln -sfn ${outside.path}/folder folder; rm -f folder`,
          '  mv folder.away folder 2>/dev/null; mkdir -p folder/sub',
          `  ln -sfn ${outside.path}/folder folder/sub2; rm -f folder/sub2`,
          `  ln -sfn ${outside.path}/secret.txt folder/note.txt; rm -f folder/note.txt; echo note > folder/note.txt`,
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
      expect(await outside.state()).toBe(before)
      expect(before).toContain(canary)
    }, 180_000)
  })
