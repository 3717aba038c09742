import { execFileSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {
  currentMountPoints,
  detectDiskSupport,
  unmountUnder,
} from '@sprout/devbox/drivers/local/sandbox/box-disk.ts'
import { runDirectoryOf } from '@sprout/devbox/drivers/local/sandbox/run-directory.ts'
import { detectDependencySupport } from '@sprout/devbox/drivers/local/workspace/shared-dependencies.ts'
import { answersHttp, testCacheDir } from '@sprout/devbox/testing/devbox-support.ts'
import { afterAll, describe, expect, it } from 'vitest'
import { startSprout } from './sprout-process.ts'
import { confinedSuite, fullConfinementMissing } from './support.ts'
import { waitFor } from './wait-for.ts'

const imagesPossible = detectDiskSupport('auto').filesystem
const boxes = 2
/** A box's image, the binds of its workspace and data folder, and its node_modules overlay. */
const mountsPerBox = detectDependencySupport('shared', os.tmpdir()).shared ? 4 : 3

/** Mount points inside `folder` (this test's DATA_DIR only, never other runs'). */
const mountsUnder = (folder: string) =>
  currentMountPoints().filter((mountPoint) => mountPoint.startsWith(`${folder}/`))

/** Loop devices backed by an image under `folder`. */
const loopDevicesUnder = (folder: string) =>
  execFileSync('losetup', ['-a'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(`${folder}/`))

/** True once the pool's boxes are mounted whole, each once. */
const boxesMounted = (dataDir: string) =>
  mountsUnder(path.join(dataDir, 'devboxes', 'volumes')).length === boxes &&
  mountsUnder(dataDir).length === boxes * mountsPerBox

/**
 * The pool's boxes mounted and their dev servers answering through their sockets: their
 * provisions are done, so a stop takes its usual second or two instead of waiting for one past
 * its 10 s deadline (a warm-up still loading the first page stops with the pool). The pool's
 * records are rows of the server's own database now (decision 034), not a file to read.
 */
async function boxesReady(dataDir: string): Promise<true | undefined> {
  if (!boxesMounted(dataDir)) return undefined
  const volumes = mountsUnder(path.join(dataDir, 'devboxes', 'volumes'))
  const runDirectory = runDirectoryOf(path.join(dataDir, 'devboxes'))
  for (const volume of volumes) {
    const socketPath = path.join(runDirectory, path.basename(volume), 'dev.sock')
    if (!(await answersHttp({ socketPath }))) return undefined
  }
  return true
}

/**
 * A stopped Sprout keeps no mount and no loop device of its data folder (issue 29, item 18;
 * docs/architecture/devbox.md "Disk"): a real server with a pool of boxes is stopped with
 * SIGTERM, started again (its boxes reattach), killed with SIGKILL, and started again (it undoes
 * what the killed one left).
 */
describe.skipIf(fullConfinementMissing || !imagesPossible)(
  confinedSuite('disks of a stopped Sprout'),
  () => {
    let dataDir = ''
    afterAll(async () => {
      if (!dataDir) return
      await unmountUnder(dataDir)
      await rm(dataDir, { recursive: true, force: true })
    })

    it('leaves no mount or loop device after SIGTERM, and cleans up after SIGKILL', async () => {
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-disks-stop-'))
      const settings = {
        DEVBOX_SANDBOX: 'auto',
        DEVBOX_DISK: 'auto',
        DEVBOX_POOL_TARGET: String(boxes),
        DEVBOX_CACHE_DIR: testCacheDir,
      }
      const first = startSprout(dataDir, settings)
      try {
        await first.ready()
        await waitFor(
          () => `${boxes} pool boxes ready:\n${first.output.text}`,
          180_000,
          () => boxesReady(dataDir),
          200,
        )
        await first.stop('SIGTERM')
      } finally {
        await first.stop('SIGKILL')
      }
      // The bound: after a stop, nothing of Sprout's is mounted or attached.
      expect(mountsUnder(dataDir), first.output.text).toEqual([])
      await waitFor(
        () => `no loop device of ${dataDir}: ${loopDevicesUnder(dataDir).join('\n')}`,
        30_000,
        () => (loopDevicesUnder(dataDir).length === 0 ? true : undefined),
        200,
      )

      // The next start reattaches the pool's boxes.
      const second = startSprout(dataDir, settings)
      try {
        await second.ready()
        await waitFor(
          () => `the pool's boxes mounted again:\n${second.output.text}`,
          120_000,
          () => (boxesMounted(dataDir) ? true : undefined),
          200,
        )
      } finally {
        await second.stop('SIGKILL')
      }
      // A killed server leaves its mounts, and maybe a loop device attached but never mounted.
      expect(mountsUnder(dataDir).length).toBe(boxes * mountsPerBox)
      const [image] = loopDevicesUnder(dataDir)
      const imagePath = /\((.*\.img)\)/.exec(image ?? '')?.[1]
      expect(imagePath).toBeDefined()
      execFileSync('losetup', ['-f', imagePath ?? ''])

      const third = startSprout(dataDir, settings)
      try {
        await third.ready()
        await waitFor(
          () => `the pool's boxes mounted once each:\n${third.output.text}`,
          180_000,
          // Nothing stacked on what the killed server left, no loop device besides the boxes'.
          async () =>
            loopDevicesUnder(dataDir).length === boxes ? await boxesReady(dataDir) : undefined,
          200,
        )
        await third.stop('SIGTERM')
      } finally {
        await third.stop('SIGKILL')
      }
      expect(mountsUnder(dataDir), third.output.text).toEqual([])
      await waitFor(
        () => `no loop device of ${dataDir}: ${loopDevicesUnder(dataDir).join('\n')}`,
        30_000,
        () => (loopDevicesUnder(dataDir).length === 0 ? true : undefined),
        200,
      )
    }, 480_000)
  },
)
