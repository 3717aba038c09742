import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { findSystemTool } from '../../../find-system-tool.ts'
import { isInside } from '../../../is-inside.ts'
import { currentMountPoints, runFile, unmountUnder } from './box-disk.ts'
import type { BoxDisksState } from './box-disks-state.ts'

/**
 * What a stopped Sprout keeps of its disks (docs/architecture/devbox.md "Disk"): nothing. At a
 * stop every mount the driver made — box images, the binds of their workspace and data folder,
 * node_modules overlays, production data images — is undone, so the loop devices (attached with
 * autoclear) are freed; `open` mounts a box's image again on its first use, `openAppData` an app's
 * at its server's next start. At a start the same sweep undoes what a killed server left.
 */
export async function releaseDisks(state: BoxDisksState): Promise<number> {
  if (!canMount()) return 0
  const released = mountsOf(state)
  for (const folder of new Set(released)) await unmountUnder(folder)
  await detachLeftLoopDevices(state)
  return released.length
}

/** At a start, before any image is mounted: what a killed server of these folders left. */
export async function sweepLeftDisks(state: BoxDisksState): Promise<number> {
  const left = await releaseDisks(state).catch(() => 0)
  if (left > 0) {
    state.logger.warn('Unmounted the disks an earlier server of this folder left mounted', {
      mounts: left,
    })
  }
  return left
}

/** Only root mounts anything; without root there is nothing of Sprout's to release. */
function canMount(): boolean {
  return process.platform === 'linux' && process.getuid?.() === 0
}

/**
 * Mount points strictly inside the folders whose mounts are the driver's own: its box images'
 * mount points, workspaces and data folders, and the deploys' data folders (those it opened, and
 * all of `deploysDir`'s when given). Never one of the parent folders itself (an operator may have
 * mounted a volume on it).
 */
function mountsOf(state: BoxDisksState): string[] {
  const folders = [state.volumesDir, state.workspacesDir, state.appDataDir]
  if (state.deploysDir) folders.push(state.deploysDir)
  const dataPaths = [...state.appDataPaths]
  return currentMountPoints()
    .filter(
      (mountPoint) =>
        folders.some((folder) => mountPoint !== folder && isInside(mountPoint, folder)) ||
        dataPaths.some((dataPath) => isInside(mountPoint, dataPath)),
    )
    .sort((first, second) => second.length - first.length)
}

/**
 * Loop devices backed by this driver's images but mounted nowhere here: a server killed between
 * attaching and mounting one, or one that only an ended namespace held. `losetup -d` frees each
 * (or, still held elsewhere, as soon as it is let go).
 */
async function detachLeftLoopDevices(state: BoxDisksState): Promise<void> {
  const losetup = findSystemTool('losetup')
  if (!losetup) return
  const mountedDevices = new Set(mountedDeviceNumbers())
  for (const { name, backing, device } of loopDevices()) {
    const ours =
      isInside(backing, state.disksDir) ||
      (state.deploysDir !== undefined && isInside(backing, state.deploysDir))
    if (!ours || mountedDevices.has(device)) continue
    await runFile(losetup, ['-d', `/dev/${name}`]).catch(() => {})
  }
}

/** Attached loop devices: name, backing file (without " (deleted)"), major:minor. */
export function loopDevices(): { name: string; backing: string; device: string }[] {
  let names: string[] = []
  try {
    names = readdirSync('/sys/block').filter((name) => /^loop\d+$/.test(name))
  } catch {
    return []
  }
  return names.flatMap((name) => {
    try {
      const backing = readFileSync(`/sys/block/${name}/loop/backing_file`, 'utf8')
        .trim()
        .replace(/ \(deleted\)$/, '')
      const device = readFileSync(`/sys/block/${name}/dev`, 'utf8').trim()
      return [{ name, backing: path.resolve(backing), device }]
    } catch {
      // Not attached (no backing file), or detached meanwhile.
      return []
    }
  })
}

function mountedDeviceNumbers(): string[] {
  try {
    return readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[2] ?? '')
      .filter(Boolean)
  } catch {
    return []
  }
}
