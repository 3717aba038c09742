import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { DataDirInUseError, lockDataDir } from './data-dir-lock.ts'

let dataDir: string
const children: ChildProcess[] = []

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-lock-'))
})
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  await rm(dataDir, { recursive: true, force: true })
})

/** Another Sprout: a Node process that holds the folder until it is told to stop. */
function otherServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
  children.push(child)
  return new Promise((resolve) => child.once('spawn', () => resolve(child)))
}

const lockFile = () => path.join(dataDir, 'sprout.pid')

test('the first server takes the folder, and gives it back when it stops', async () => {
  const release = await lockDataDir(dataDir, { waitMs: 1000 })
  expect(readFileSync(lockFile(), 'utf8')).toBe(String(process.pid))
  release()
  expect(existsSync(lockFile())).toBe(false)
})

test('a server that died (SIGKILL, a crash) is taken over at once', async () => {
  const dead = await otherServer()
  const exited = new Promise((resolve) => dead.once('exit', resolve))
  dead.kill('SIGKILL')
  await exited
  writeFileSync(lockFile(), String(dead.pid))
  const waitedFor: number[] = []
  const release = await lockDataDir(dataDir, { waitMs: 0, onWait: (pid) => waitedFor.push(pid) })
  expect(waitedFor).toEqual([])
  expect(readFileSync(lockFile(), 'utf8')).toBe(String(process.pid))
  release()
})

test('a garbled or empty file is not a server', async () => {
  writeFileSync(lockFile(), '\0garbage')
  const release = await lockDataDir(dataDir, { waitMs: 0 })
  expect(readFileSync(lockFile(), 'utf8')).toBe(String(process.pid))
  release()
})

test('beside a server that runs on, the start is refused with a clear message', async () => {
  const running = await otherServer()
  writeFileSync(lockFile(), String(running.pid))
  const waitedFor: number[] = []
  const refused = lockDataDir(dataDir, { waitMs: 300, onWait: (pid) => waitedFor.push(pid) })
  await expect(refused).rejects.toThrow(DataDirInUseError)
  await expect(refused).rejects.toThrow(`Another Sprout (pid ${running.pid}) is using DATA_DIR`)
  expect(waitedFor).toEqual([running.pid])
  expect(readFileSync(lockFile(), 'utf8')).toBe(String(running.pid))
})

test('a server that is stopping is waited for, then the folder is taken', async () => {
  const stopping = await otherServer()
  writeFileSync(lockFile(), String(stopping.pid))
  const locked = lockDataDir(dataDir, {
    waitMs: 30_000,
    // It exits once the new one has started waiting, as a restarted server's predecessor does.
    onWait: () => stopping.kill('SIGTERM'),
  })
  const release = await locked
  expect(readFileSync(lockFile(), 'utf8')).toBe(String(process.pid))
  release()
})
