import { execFileSync } from 'node:child_process'
import { mkdir, readdir, readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import type { LocalDevbox } from '@sprout/devbox/drivers/local/local-driver.ts'
import {
  detectDiskSupport,
  isMountPoint,
  unmountUnder,
} from '@sprout/devbox/drivers/local/sandbox/box-disk.ts'
import { devServerText } from '@sprout/devbox/testing/devbox-support.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { confinedSuite, createTestDriver, fullConfinementMissing } from './support.ts'
import { waitFor } from './wait-for.ts'

const imagesPossible = detectDiskSupport('auto').filesystem

/** Loop devices whose backing file is under `folder` (its own images only, not other runs'). */
function loopDevicesUnder(folder: string): string[] {
  return execFileSync('losetup', ['-a'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(`${folder}/`))
}

/** The network bridge of a box (docs/architecture/devbox.md "Network"), by its dev socket. */
async function bridgePidOf(boxId: string): Promise<number> {
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const commandLine = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '')
    const words = commandLine.split('\0')
    // The bridge itself (node), not the bubblewrap that started it.
    if (!words[1]?.endsWith('box-bridge.mjs')) continue
    if (words.some((word) => word.endsWith(`/${boxId}/dev.sock`))) return Number(name)
  }
  throw new Error(`No network bridge runs for box ${boxId}`)
}

/**
 * A box's network bridge holds nothing of the host's mounts (issue 29, item 6): its root is the
 * boxes' allow-listed one, so an unmount in the host's namespace frees the disk, and a stopped
 * Sprout's loop devices detach while another Sprout's bridges run.
 */
describe.skipIf(fullConfinementMissing || !imagesPossible)(
  confinedSuite('the network bridge and the host’s mounts'),
  () => {
    let stopped: Awaited<ReturnType<typeof createTestDriver>>
    let running: Awaited<ReturnType<typeof createTestDriver>>
    let box: LocalDevbox
    let held: string

    beforeAll(async () => {
      // A Sprout with a box, and a host mount, both there when the other Sprout's bridge starts.
      stopped = await createTestDriver({ disk: 'auto', limits: { diskMb: 64 } })
      await stopped.driver.provision('vite-react', { id: 'bridge-stopped' })
      held = path.join(stopped.baseDirectory, 'held')
      await mkdir(held)
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', held])
      running = await createTestDriver({ disk: 'auto', limits: { diskMb: 64 } })
      box = await running.driver.provision('vite-react', { id: 'bridge-running' })
    }, 90_000)
    afterAll(async () => {
      for (const setup of [stopped, running]) {
        await setup?.driver.shutdown()
        // Whatever a failed test left mounted, so the folder can go.
        if (setup) await unmountUnder(setup.baseDirectory)
        await setup?.close()
      }
    })

    it('keeps no copy of a host mount: unmounted in the host, it is gone', async () => {
      const bridge = await bridgePidOf(box.id)
      const mountInfo = await readFile(`/proc/${bridge}/mountinfo`, 'utf8')
      // Nothing of either Sprout's folder: not the tmpfs, no box image or bind, not its own.
      for (const folder of [stopped.baseDirectory, running.baseDirectory]) {
        expect(mountInfo.split('\n').filter((line) => line.includes(folder))).toEqual([])
      }
      execFileSync('umount', [held])
      expect(isMountPoint(held)).toBe(false)
      expect(await readFile(`/proc/${bridge}/mountinfo`, 'utf8')).not.toContain(held)
      // The bridge still carries the box's preview.
      expect(await devServerText(box.devServer.target())).toContain('fake dev server')
    })

    it("detaches a stopped Sprout's loop devices while another Sprout's bridge runs", async () => {
      const disks = path.join(stopped.baseDirectory, 'devboxes', 'disks')
      expect(loopDevicesUnder(disks)).toHaveLength(1)
      const bridge = await bridgePidOf(box.id)
      // What a stop leaves: nothing mounted in the host's namespace, the folders still there.
      await stopped.driver.shutdown()
      await unmountUnder(path.join(stopped.baseDirectory, 'devboxes'))
      await waitFor(
        () => `the loop devices of ${disks} to detach: ${loopDevicesUnder(disks).join('\n')}`,
        30_000,
        () => (loopDevicesUnder(disks).length === 0 ? true : undefined),
      )
      // The other Sprout's bridge ran all along.
      expect((await stat(`/proc/${bridge}`)).isDirectory()).toBe(true)
      expect(await devServerText(box.devServer.target())).toContain('fake dev server')
    }, 60_000)
  },
)
