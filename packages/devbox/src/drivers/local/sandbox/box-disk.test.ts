// Long file: one box's disk from its making to its destruction, through stops, a killed server,
// restarts and a production data folder, on real images (each step needs the one before).
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, stat, statfs, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestDevServer } from '../../../dev-server-request.ts'
import { WorkspacePathError } from '../../../devbox-driver.ts'
import { createFakeTemplates, createTestDriver, waitFor } from '../../../testing/devbox-support.ts'
import type { LocalDevbox, LocalDriver } from '../local-driver.ts'
import { detectDependencySupport } from '../workspace/shared-dependencies.ts'
import {
  currentMountPoints,
  describeDiskEnforcement,
  detectDiskSupport,
  isMountPoint,
  measuredDisk,
  unmountUnder,
} from './box-disk.ts'

const mebibyte = 1024 * 1024
const imagesPossible = detectDiskSupport('auto').filesystem
const overlaysPossible = detectDependencySupport('shared', os.tmpdir()).shared

const shell = async (box: LocalDevbox, command: string, timeoutSeconds = 30) =>
  (await box.exec(command, { timeoutSeconds })).output

/** Loop devices backed by a file under `folder` (none may be left behind). */
const loopDevicesUnder = (folder: string) =>
  execFileSync('losetup', ['-a'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(folder))

/**
 * The loop device of an unmounted image is detached by the kernel shortly after (autoclear):
 * within 5 s on an idle machine, later on a loaded one, so the wait is only a safety net.
 */
const noLoopDeviceUnder = (folder: string) =>
  waitFor(() => loopDevicesUnder(folder).length === 0, 30_000)

describe('a measured disk (non-root installations)', () => {
  let base: string
  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'sprout-measured-disk-'))
    await mkdir(path.join(base, 'workspace'))
    await mkdir(path.join(base, 'data'))
    await writeFile(path.join(base, 'workspace', 'a'), Buffer.alloc(3 * mebibyte, 1))
    await writeFile(path.join(base, 'data', 'b'), Buffer.alloc(3 * mebibyte, 1))
  })
  afterAll(async () => {
    await rm(base, { recursive: true, force: true })
  })

  it('counts the workspace and the data folder together', async () => {
    const disk = measuredDisk([path.join(base, 'workspace'), path.join(base, 'data')], 5)
    expect(await disk.usedBytes()).toBeGreaterThanOrEqual(6 * mebibyte)
    const refused = await disk.assertSpace().catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(WorkspacePathError)
    expect((refused as WorkspacePathError).code).toBe('disk-full')
    expect((refused as Error).message).toContain('over its limit of 5 MB')
    expect(await measuredDisk([path.join(base, 'workspace')], 5).fullNotice('')).toBeUndefined()
  })

  it('says how the limit is enforced', () => {
    const limits = { diskMb: 2048, appsDiskMb: 1024 }
    expect(describeDiskEnforcement({ filesystem: false, reason: 'needs root' }, limits)).toBe(
      '2048 MB per box (workspace and data folder), 1024 MB per production data folder: box measured before each command and write and every second during commands; production data not limited (needs root)',
    )
  })
})

/**
 * As root, each box's workspace and data folder share one ext4 image of DEVBOX_DISK_MB (64 MB
 * here), and a production data folder gets one of APPS_DISK_MB: the filesystem refuses what
 * does not fit, whoever writes it and however.
 */
describe.skipIf(!imagesPossible)('a disk image per box (root)', () => {
  let base: string
  let rootDir: string
  let driver: LocalDriver
  let box: LocalDevbox
  const createDriver = async () =>
    createTestDriver({
      rootDir,
      templatesDir: path.join(base, 'templates'),
      limits: { diskMb: 64 },
      disk: 'auto',
      appsDiskMb: 32,
    })

  /** What a server killed while the box ran leaves: its image mounted, its folders bound. */
  const leaveMounted = (id: string) => {
    const volume = path.join(rootDir, 'volumes', id)
    const image = path.join(rootDir, 'disks', `${id}.img`)
    execFileSync('mount', ['-o', 'loop,nosuid,nodev', image, volume])
    execFileSync('mount', [
      '--bind',
      path.join(volume, 'workspace'),
      path.join(rootDir, 'workspaces', id),
    ])
    execFileSync('mount', ['--bind', path.join(volume, 'data'), path.join(rootDir, 'data', id)])
  }

  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'sprout-box-disk-'))
    rootDir = path.join(base, 'devboxes')
    await createFakeTemplates(path.join(base, 'templates'))
    driver = await createDriver()
    box = await driver.provision('vite-react', { id: 'disk-box' })
  }, 60_000)

  afterAll(async () => {
    await driver?.shutdown()
    await unmountUnder(base)
    await rm(base, { recursive: true, force: true })
    await noLoopDeviceUnder(base)
  }, 30_000)

  it('mounts the box image under its usual paths, owned by the box user', async () => {
    expect(isMountPoint(box.workspacePath)).toBe(true)
    expect(isMountPoint(box.dataPath ?? '')).toBe(true)
    expect(isMountPoint(path.join(rootDir, 'volumes', box.id))).toBe(true)
    const image = path.join(rootDir, 'disks', `${box.id}.img`)
    expect((await stat(image)).size).toBe(64 * mebibyte)
    // Sparse: only what is written takes space on the host.
    expect((await stat(image)).blocks * 512).toBeLessThan(32 * mebibyte)
    expect(driver.enforcement.disk).toContain('own ext4 image each, enforced by the filesystem')
    const owner = driver.sandboxed ? (await stat(box.workspacePath)).uid : undefined
    if (owner !== undefined && owner !== 0) {
      expect((await stat(box.dataPath ?? '')).uid).toBe(owner)
    }
    expect(await shell(box, 'git log --oneline | wc -l')).toMatch(/^1\n/)
  })

  it('refuses 3 GB written to the data folder, says the disk is full, and runs the next command', async () => {
    const data = driver.sandboxed ? '/home/sprout/data' : box.dataPath
    const output = await shell(
      box,
      `dd if=/dev/zero of=${data}/fill bs=1M count=3072 2>&1; fallocate -l 3G ${data}/fill2 2>&1; echo done`,
    )
    expect(output).toContain('No space left on device')
    expect(output).toContain("The app's disk is full (64 MB, DEVBOX_DISK_MB")
    expect((await stat(path.join(box.dataPath ?? '', 'fill'))).size).toBeLessThan(64 * mebibyte)
    // fallocate refuses the whole size at once: the file it opened stays empty.
    expect((await stat(path.join(box.dataPath ?? '', 'fill2'))).size).toBe(0)
    // The workspace shares the limit: it is full too.
    const [written] = await Promise.allSettled([
      box.files.write('more.txt', 'x'.repeat(2 * mebibyte)),
    ])
    expect(written.status).toBe('rejected')
    const reason = (written as PromiseRejectedResult).reason as WorkspacePathError
    expect(reason.code).toBe('disk-full')
    expect(reason.message).toContain("The app's disk is full (64 MB")
    // Commands still run, so they can free space themselves.
    expect(await shell(box, `rm ${data}/fill; echo freed`)).toContain('freed')
    expect(await shell(box, 'head -c 8M /dev/zero > small && echo wrote')).toContain('wrote')
    await box.files.write('more.txt', 'fits now')
    expect(await shell(box, 'rm small more.txt; echo ok')).toMatch(/^ok/)
  }, 60_000)

  it('refuses 3 GB written to the workspace', async () => {
    const output = await shell(box, 'dd if=/dev/zero of=big bs=1M count=3072 2>&1; echo done')
    expect(output).toContain('No space left on device')
    expect(output).toContain("The app's disk is full")
    const refused = await box.files
      .write('note.txt', 'x'.repeat(mebibyte))
      .catch((error: WorkspacePathError) => error)
    expect((refused as WorkspacePathError).code).toBe('disk-full')
    expect(await shell(box, 'rm big; echo runs again')).toContain('runs again')
  }, 60_000)

  it('counts a file deleted while still open', async () => {
    const free = await statfs(box.workspacePath)
    // Each file takes 60% of the free space: the second fits only if the first's is counted no more.
    const sizeMb = Math.ceil((free.bavail * free.bsize * 0.6) / mebibyte)
    const output = await shell(
      box,
      [
        'exec 3>held',
        `head -c ${sizeMb}M /dev/zero >&3`,
        'rm held',
        `head -c ${sizeMb}M /dev/zero > other && echo second-fit || echo second-refused`,
        'exec 3>&-',
      ].join('\n'),
    )
    expect(output).toContain('second-refused')
    expect(output).toContain('No space left on device')
    // Closed with the command: its space is back.
    const again = await shell(box, `rm -f other; head -c ${sizeMb}M /dev/zero > other && echo fits`)
    expect(again).toContain('fits')
    await shell(box, 'rm -f other')
  }, 60_000)

  it('keeps no mount and no loop device after a stop, and mounts the image again at open', async () => {
    await writeFile(path.join(box.dataPath ?? '', 'kept.txt'), 'kept')
    const image = path.join(rootDir, 'disks', `${box.id}.img`)
    const boxMounts = () =>
      currentMountPoints().filter((mountPoint) => mountPoint.includes(`/${box.id}`))
    // The image, the workspace and data folder bound from it, and the node_modules overlay.
    const mountCount = overlaysPossible ? 4 : 3
    expect(boxMounts()).toHaveLength(mountCount)
    await driver.shutdown()
    expect(boxMounts()).toEqual([])
    await noLoopDeviceUnder(image)
    expect(existsSync(path.join(box.workspacePath, '.git'))).toBe(false)
    driver = await createDriver()
    box = await driver.open(box.id, 'vite-react')
    expect(boxMounts()).toHaveLength(mountCount)
    expect(await readFile(path.join(box.dataPath ?? '', 'kept.txt'), 'utf8')).toBe('kept')
    const output = await shell(box, 'dd if=/dev/zero of=big bs=1M count=3072 2>&1; rm big')
    expect(output).toContain('No space left on device')
  }, 60_000)

  it('unmounts a closed box (its lease went to another instance) and mounts it again at open', async () => {
    const boxMounts = () =>
      currentMountPoints().filter((mountPoint) => mountPoint.includes(`/${box.id}`))
    const mountCount = boxMounts().length
    expect(mountCount).toBeGreaterThanOrEqual(3)
    await driver.close?.(box.id)
    expect(boxMounts()).toEqual([])
    await noLoopDeviceUnder(path.join(rootDir, 'disks', `${box.id}.img`))
    box = await driver.open(box.id, 'vite-react')
    expect(boxMounts()).toHaveLength(mountCount)
    expect(await readFile(path.join(box.dataPath ?? '', 'kept.txt'), 'utf8')).toBe('kept')
  }, 60_000)

  it('undoes at start what a killed server left mounted and attached', async () => {
    const image = path.join(rootDir, 'disks', `${box.id}.img`)
    const boxMounts = () =>
      currentMountPoints().filter((mountPoint) => mountPoint.includes(`/${box.id}`))
    const mountCount = boxMounts().length
    await driver.shutdown()
    // A killed server's leftovers: its mounts, and a loop device attached but never mounted.
    leaveMounted(box.id)
    execFileSync('losetup', ['-f', image])
    expect(loopDevicesUnder(image)).toHaveLength(2)
    driver = await createDriver()
    box = await driver.open(box.id, 'vite-react')
    // The same mounts, none stacked on what was left, and one loop device.
    expect(boxMounts()).toHaveLength(mountCount)
    await waitFor(() => loopDevicesUnder(image).length === 1, 30_000)
    expect(await readFile(path.join(box.dataPath ?? '', 'kept.txt'), 'utf8')).toBe('kept')
  }, 60_000)

  it('limits a production data folder to APPS_DISK_MB', async () => {
    const deploysDir = path.join(base, 'deploys')
    const deployPath = path.join(base, 'deploy-1')
    await mkdir(path.join(deployPath, 'server'), { recursive: true })
    await writeFile(
      path.join(deployPath, 'server', 'index.js'),
      [
        "const http = require('node:http')",
        "const fs = require('node:fs')",
        "const folder = require('node:path').dirname((process.env.DATABASE_URL ?? '').replace(/^file:/, ''))",
        'http.createServer((request, response) => {',
        "  if (request.url !== '/api/fill') return response.end('{\"ok\":true}')",
        '  const chunk = Buffer.alloc(1 << 20)',
        "  const fd = fs.openSync(folder + '/fill', 'w')",
        "  let written = 0, code = 'none'",
        '  try { for (let i = 0; i < 3072; i++) { fs.writeSync(fd, chunk); written++ } }',
        '  catch (error) { code = error.code }',
        '  fs.closeSync(fd)',
        '  response.end(JSON.stringify({ written, code }))',
        "}).listen(Number(process.env.PORT), '127.0.0.1')",
      ].join('\n'),
    )
    const dataPath = path.join(deploysDir, 'app-1', 'data')
    await mkdir(dataPath, { recursive: true })
    await writeFile(path.join(dataPath, 'app.db'), 'written before images')
    const instance = await driver.startAppServer({
      appId: 'app-1',
      deployId: 'deploy-1',
      deployPath,
      dataPath,
    })
    try {
      expect(isMountPoint(dataPath)).toBe(true)
      // Data from before is moved onto the image.
      expect(await readFile(path.join(dataPath, 'app.db'), 'utf8')).toBe('written before images')
      const answer = await requestDevServer(instance.target(), '/api/fill', { timeoutMs: 20_000 })
      const { written, code } = JSON.parse(answer.body) as { written: number; code: string }
      expect(code).toBe('ENOSPC')
      expect(written).toBeLessThan(32)
    } finally {
      await instance.stop()
    }
    // Deleting the app (removeDeploys) unmounts it; the image goes with the folder.
    await unmountUnder(path.join(deploysDir, 'app-1'))
    await rm(path.join(deploysDir, 'app-1'), { recursive: true })
    await noLoopDeviceUnder(deploysDir)

    // Data from before that does not fit stays where it is, whole, and the server still starts.
    const bigDataPath = path.join(deploysDir, 'app-2', 'data')
    await mkdir(bigDataPath, { recursive: true })
    await writeFile(path.join(bigDataPath, 'app.db'), Buffer.alloc(40 * mebibyte, 7))
    const big = await driver.startAppServer({
      appId: 'app-2',
      deployId: 'deploy-1',
      deployPath,
      dataPath: bigDataPath,
    })
    await big.stop()
    expect(isMountPoint(bigDataPath)).toBe(false)
    // A stop releases a production data folder's image too; its next start mounts it again.
    const kept = path.join(deploysDir, 'app-3', 'data')
    await mkdir(kept, { recursive: true })
    await (
      await driver.startAppServer({
        appId: 'app-3',
        deployId: 'deploy-1',
        deployPath,
        dataPath: kept,
      })
    ).stop()
    expect(isMountPoint(kept)).toBe(true)
    await driver.shutdown()
    driver = await createDriver()
    expect(isMountPoint(kept)).toBe(false)
    driver = await createDriver()
    await (
      await driver.startAppServer({
        appId: 'app-3',
        deployId: 'deploy-1',
        deployPath,
        dataPath: kept,
      })
    ).stop()
    expect(isMountPoint(kept)).toBe(true)
    await driver.shutdown()
    driver = await createDriver()
    expect((await stat(path.join(bigDataPath, 'app.db'))).size).toBe(40 * mebibyte)
    expect(existsSync(`${bigDataPath}.img`)).toBe(false)
    await noLoopDeviceUnder(deploysDir)
  }, 60_000)

  it('unmounts an image deleted while mounted (a DATA_DIR removed with rm) at the next start', async () => {
    const orphan = await driver.provision('vite-react', { id: 'orphan' })
    await driver.shutdown()
    // Left mounted by a killed server, then its image deleted.
    leaveMounted(orphan.id)
    await rm(path.join(rootDir, 'disks', 'orphan.img'))
    expect(isMountPoint(orphan.workspacePath)).toBe(true)
    driver = await createDriver()
    box = await driver.open(box.id, 'vite-react')
    const orphanPaths = [orphan.workspacePath, orphan.dataPath ?? '']
    expect(currentMountPoints().filter((mountPoint) => orphanPaths.includes(mountPoint))).toEqual(
      [],
    )
    await noLoopDeviceUnder(path.join(rootDir, 'disks', 'orphan.img'))
  }, 60_000)

  it('destroys the box: no mount, no image, no loop device left', async () => {
    await driver.destroy(box.id)
    const boxPaths = [box.workspacePath, box.dataPath ?? '', path.join(rootDir, 'volumes', box.id)]
    expect(currentMountPoints().filter((mountPoint) => boxPaths.includes(mountPoint))).toEqual([])
    expect(existsSync(path.join(rootDir, 'disks', `${box.id}.img`))).toBe(false)
    expect(existsSync(box.workspacePath)).toBe(false)
    await noLoopDeviceUnder(rootDir)
  }, 30_000)
})
