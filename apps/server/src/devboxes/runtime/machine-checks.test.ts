// The driver's machine checks run ahead, in the background (checkLocalDevboxMachine), while the
// server opens its database: the driver made afterwards must find exactly what it finds alone.
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { openDatabase } from '@sprout/db/database.ts'
import {
  checkDiskSupport,
  detectDiskSupport,
  removeWithMounts,
} from '@sprout/devbox/drivers/local/sandbox/box-disk.ts'
import { stageEtc, stageEtcInBackground } from '@sprout/devbox/drivers/local/sandbox/box-root.ts'
import {
  bubblewrapWorks,
  checkSandbox,
  findBubblewrap,
} from '@sprout/devbox/drivers/local/sandbox/sandbox.ts'
import {
  checkDependencySupport,
  detectDependencySupport,
} from '@sprout/devbox/drivers/local/workspace/shared-dependencies.ts'
import { silentLogger } from '@sprout/devbox/logger.ts'
import { afterAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../../config/config.ts'
import { checkLocalDevboxMachine, createLocalDevboxRuntime } from './create-local-runtime.ts'

const root = await mkdtemp(path.join(os.tmpdir(), 'sprout-machine-checks-'))
afterAll(() => removeWithMounts(root))

describe('machine checks run ahead of the dev-box driver', () => {
  it('answer what the synchronous detections answer, once each', async () => {
    const disks = path.join(root, 'disks')
    await checkDiskSupport('auto', disks)
    const checkedDisk = detectDiskSupport('auto', disks)
    // The checked answer is kept for the process: the next detection answers the same.
    expect(detectDiskSupport('auto', disks)).toEqual(checkedDisk)

    await checkDependencySupport('shared', root)
    const checkedDependencies = detectDependencySupport('shared', root)
    expect(detectDependencySupport('shared', root)).toEqual(checkedDependencies)

    const bubblewrap = findBubblewrap()
    if (bubblewrap) {
      await checkSandbox({ stateDirectory: root })
      const checkedBubblewrap = bubblewrapWorks(bubblewrap)
      expect(bubblewrapWorks(bubblewrap)).toBe(checkedBubblewrap)
    }
  })

  it("stage the boxes' /etc as stageEtc does, and stageEtc takes it", async () => {
    const user = { uid: 61000, gid: 61000 }
    const ahead = path.join(root, 'run-ahead')
    const alone = path.join(root, 'run-alone')
    await mkdir(ahead, { recursive: true })
    await mkdir(alone, { recursive: true })
    await stageEtcInBackground(ahead, user)
    const taken = stageEtc(ahead, user)
    const staged = stageEtc(alone, user)
    const listing = async (folder: string) =>
      Promise.all(
        (await readdir(folder, { recursive: true })).sort().map(async (name) => {
          const entry = await lstat(path.join(folder, name))
          return `${name} ${entry.isSymbolicLink() ? await readlink(path.join(folder, name)) : entry.isDirectory() ? 'dir' : entry.size}`
        }),
      )
    expect(taken.startsWith(ahead)).toBe(true)
    expect(await listing(taken)).toEqual(await listing(staged))
    expect(await readFile(path.join(taken, 'passwd'), 'utf8')).toContain('sprout:x:61000:61000')
  })

  it('give the driver the confinement it finds without them', { timeout: 60_000 }, async () => {
    const database = await openDatabase({ kind: 'pglite', dataDir: undefined })
    const runtimeIn = async (name: string, checkedAhead: boolean) => {
      const config = parseConfig({
        DATA_DIR: path.join(root, name),
        DEVBOX_POOL_TARGET: '0',
      })
      if (checkedAhead) await checkLocalDevboxMachine(config)
      const runtime = createLocalDevboxRuntime(config, database.db, {
        logger: silentLogger,
        // No box is attached here: their processes get nothing.
        appProcesses: () => ({ environmentFor: async () => ({}), handleInternalRequest: () => {} }),
      })
      await runtime.stop()
      return runtime.confinement
    }
    try {
      const alone = await runtimeIn('alone', false)
      const ahead = await runtimeIn('ahead', true)
      expect(ahead).toEqual(alone)
      expect(ahead?.enforcement.disk).toBeTruthy()
    } finally {
      await database.close()
    }
  })
})
