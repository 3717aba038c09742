import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { WorkspacePathError } from '../../../devbox-driver.ts'
import { createWorkspaceFiles } from './workspace-files.ts'

const canary = `CANARY-${randomUUID()}`
const racerScript = path.resolve(import.meta.dirname, '../../../testing/link-racer.ts')
const minimumCalls = 1_200

let baseDirectory: string
let workspace: string
let outside: string

beforeAll(async () => {
  baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-file-race-'))
  workspace = path.join(baseDirectory, 'workspace')
  outside = path.join(baseDirectory, 'outside')
  await mkdir(path.join(workspace, 'folder/sub'), { recursive: true })
  await mkdir(path.join(outside, 'secret-folder'), { recursive: true })
  await writeFile(path.join(outside, 'secret.txt'), `${canary}\n`)
  await writeFile(path.join(outside, 'secret-folder/secret.txt'), `${canary}\n`)
  await writeFile(path.join(workspace, 'file.txt'), 'harmless file\n')
  await writeFile(path.join(workspace, 'folder/note.txt'), 'harmless note\n')
  await writeFile(path.join(workspace, 'folder/sub/deep.txt'), 'harmless deep\n')
})

afterAll(async () => {
  await rm(baseDirectory, { recursive: true, force: true })
})

/** Every entry below `folder` with its type, mode, owner, modification time and content. */
async function snapshot(folder: string): Promise<string[]> {
  const lines: string[] = []
  for (const name of (await readdir(folder)).sort()) {
    const entryPath = path.join(folder, name)
    const stats = await lstat(entryPath)
    const line = `${name} ${stats.mode} ${stats.uid}:${stats.gid} ${stats.mtimeMs}`
    if (stats.isDirectory()) {
      lines.push(line, ...(await snapshot(entryPath)).map((inner) => `${name}/${inner}`))
    } else {
      lines.push(stats.isFile() ? `${line} ${await readFile(entryPath, 'utf8')}` : line)
    }
  }
  return lines
}

function startRacer() {
  const racer = spawn(
    process.execPath,
    [
      racerScript,
      workspace,
      path.join(outside, 'secret.txt'),
      path.join(outside, 'secret-folder'),
      '60',
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  )
  let output = ''
  const ready = new Promise<void>((resolve, reject) => {
    racer.stdout.setEncoding('utf8').on('data', (data: string) => {
      output += data
      if (output.includes('ready')) resolve()
    })
    racer.on('exit', () => reject(new Error(`The racer ended before it swapped: ${output}`)))
  })
  const stop = async () => {
    const exited = once(racer, 'exit')
    racer.stdin.end()
    await exited
    return Number(/swaps (\d+)/.exec(output)?.[1] ?? 0)
  }
  return { ready, stop }
}

test('no file tool leaves the workspace while app code swaps links in and out', async () => {
  const files = createWorkspaceFiles(workspace)
  const outsideBefore = await snapshot(outside)
  const baseBefore = await readdir(baseDirectory)
  const pattern = `harmless|${canary}`
  const calls: [string, () => Promise<unknown>][] = [
    ['read file.txt', () => files.read('file.txt')],
    ['read folder/note.txt', () => files.read('folder/note.txt')],
    ['read folder/sub/deep.txt', () => files.read('folder/sub/deep.txt')],
    ['search', () => files.search({ pattern })],
    ['search folder', () => files.search({ pattern, path: 'folder' })],
    ['search folder/sub', () => files.search({ pattern, path: 'folder/sub' })],
    ['search file.txt', () => files.search({ pattern, path: 'file.txt' })],
    ['list', () => files.list('.', { recursive: true })],
    ['list folder', () => files.list('folder', { recursive: true })],
    ['write file.txt', () => files.write('file.txt', 'harmless write\n')],
    ['write folder/sub', () => files.write('folder/sub/written.txt', 'harmless write\n')],
    ['write new folders', () => files.write('folder/sub/made/new.txt', 'harmless write\n')],
    ['delete in folder/sub', () => files.delete('folder/sub/written.txt')],
    ['delete folder/sub', () => files.delete('folder/sub')],
  ]

  const tally = { calls: 0, succeeded: 0, refusedLinks: 0, swaps: 0 }
  const leaks: string[] = []
  const unexpected: string[] = []
  const run = async ([label, work]: [string, () => Promise<unknown>]) => {
    tally.calls++
    try {
      const result = await work()
      tally.succeeded++
      if (JSON.stringify(result ?? null).includes(canary)) leaks.push(label)
    } catch (error) {
      if (error instanceof Error && error.message.includes(canary)) leaks.push(label)
      if (error instanceof WorkspacePathError) {
        if (error.code === 'symbolic-link') tally.refusedLinks++
      } else if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        unexpected.push(`${label}: ${String(error)}`)
      }
    }
  }

  const racer = startRacer()
  try {
    await racer.ready
    while (tally.calls < minimumCalls) {
      // Half the calls overlap each other too, as an agent's parallel tool calls do.
      await Promise.all(calls.map(run))
      for (const call of calls) await run(call)
    }
  } finally {
    tally.swaps = await racer.stop()
  }

  expect(leaks).toEqual([])
  expect(unexpected).toEqual([])
  expect(await snapshot(outside)).toEqual(outsideBefore)
  expect(await readdir(baseDirectory)).toEqual(baseBefore)
  // The race really ran: links were swapped in, met by the tools, and the tools still worked.
  expect(tally.calls).toBeGreaterThanOrEqual(minimumCalls)
  expect(tally.swaps).toBeGreaterThan(100)
  expect(tally.refusedLinks).toBeGreaterThan(0)
  expect(tally.succeeded).toBeGreaterThan(tally.calls / 10)
}, 30_000)
