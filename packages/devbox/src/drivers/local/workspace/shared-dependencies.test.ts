import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { lstat, mkdtemp, readdir, readFile, readlink, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createFakeTemplates,
  createTestDriver,
  hasBubblewrap,
  testCacheDir,
} from '../../../testing/devbox-support.ts'
import type { LocalDevbox, LocalDriver } from '../local-driver.ts'
import { detectDiskSupport, isMountPoint, unmountUnder } from '../sandbox/box-disk.ts'
import { detectDependencySupport } from './shared-dependencies.ts'

const overlays = detectDependencySupport('shared', os.tmpdir())
const images = detectDiskSupport('auto')
const skipReason = !overlays.shared
  ? overlays.reason
  : !images.filesystem
    ? images.reason
    : !hasBubblewrap
      ? 'no working bubblewrap'
      : undefined
const title = (text: string) => (skipReason ? `${text} (skipped: ${skipReason})` : text)
/** The box uid (DEVBOX_UID's default), which must be able to change its own node_modules. */
const boxUid = 61000

const shell = async (box: LocalDevbox, command: string, timeoutSeconds = 30) => {
  const result = await box.exec(command, { timeoutSeconds })
  return result.output
}

/** The fake template with two tiny dependencies (one with a bin) for the shared lower. */
async function createTemplates(directory: string) {
  await createFakeTemplates(directory)
  const manifestPath = path.join(directory, 'vite-react', 'package.json')
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8'))
  manifest.name = 'shared-dependencies-app'
  manifest.dependencies = { semver: '7.6.3', 'is-number': '7.0.0' }
  await writeFile(manifestPath, JSON.stringify(manifest))
  return directory
}

/**
 * As root with overlayfs: a new box's node_modules is the prepared cache's, read-only, under a
 * writable layer of the box's own on its disk image; nothing a box does reaches the cache or
 * another box.
 */
describe.skipIf(skipReason !== undefined)(title('shared dependencies (root, overlayfs)'), () => {
  let base: string
  let rootDir: string
  let driver: LocalDriver
  let first: LocalDevbox
  let second: LocalDevbox
  let lower: string
  // Another driver gets a folder of its own: a driver's start and stop undo every mount in its
  // folder, as one server per DATA_DIR does (docs/architecture/devbox.md "Disk").
  const createDriver = (
    options: { disk?: 'auto' | 'measured'; shared?: boolean; rootDir?: string; uid?: number } = {},
  ) =>
    createTestDriver({
      rootDir: options.rootDir ?? rootDir,
      templatesDir: path.join(base, 'templates'),
      limits: { diskMb: 128 },
      disk: options.disk ?? 'auto',
      dependencies: options.shared === false ? 'copied' : 'shared',
      egress: 'registry',
      boxUid: options.uid ?? boxUid,
    })
  const upperOf = (id: string) => path.join(rootDir, 'volumes', id, 'layers/node_modules/upper')

  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'sprout-shared-dependencies-'))
    rootDir = path.join(base, 'devboxes')
    await createTemplates(path.join(base, 'templates'))
    driver = createDriver()
    first = await driver.provision('vite-react', { id: 'first' })
    second = await driver.provision('vite-react', { id: 'second' })
    lower = await readlink(path.join(rootDir, 'volumes/first/layers/node_modules/lower'))
  }, 180_000)

  afterAll(async () => {
    await driver?.shutdown()
    await unmountUnder(base)
    await rm(base, { recursive: true, force: true })
  }, 30_000)

  it('mounts the cache folder node_modules under a layer on the box image, its root the box uid’s', async () => {
    const modules = path.join(first.workspacePath, 'node_modules')
    expect(isMountPoint(modules)).toBe(true)
    expect(lower.startsWith(testCacheDir)).toBe(true)
    expect(await shell(first, 'ls node_modules/.bin')).toContain('semver')
    expect(await shell(first, 'node_modules/.bin/semver 1.2.3')).toBe('1.2.3\n')
    // The shared files are root's and writable by every box uid (each box has its own).
    expect(await shell(first, 'stat -c %u node_modules node_modules/semver/package.json')).toBe(
      `${boxUid}\n0\n`,
    )
    // The cache folder is root's alone; only the overlay leads into it, and the box learns no
    // host path, box id or cache version from its mount table.
    expect((await stat(path.dirname(lower))).mode & 0o777).toBe(0o700)
    const mountTable = await shell(first, 'grep overlay /proc/self/mountinfo')
    expect(mountTable).toContain('lowerdir=lower,upperdir=upper,workdir=work')
    for (const hostPath of [rootDir, testCacheDir, first.id]) {
      expect(mountTable).not.toContain(hostPath)
    }
    // The workspace's own files and the upper layer are on the image: nothing copied.
    expect(execFileSync('du', ['-s', '-k', upperOf('first')], { encoding: 'utf8' })).toMatch(
      /^\d\t/,
    )
    // Checkpoints and file tools never see node_modules.
    expect(await shell(first, 'git status --porcelain --ignored | grep -c node_modules')).toBe(
      '1\n',
    )
    expect(existsSync(path.join(first.workspacePath, 'layers'))).toBe(false)
  })

  it('keeps one box changes, deletions and installs away from the cache and the other box', async () => {
    const output = await shell(
      first,
      [
        'rm -rf node_modules/semver && echo removed',
        'echo \'module.exports = () => "changed"\' > node_modules/is-number/index.js',
        'node -e "console.log(require(\'is-number\')(5))"',
      ].join('; '),
    )
    expect(output).toBe('removed\nchanged\n')
    // The deletion is a whiteout (a 0/0 character device) in the first box's upper layer.
    const whiteout = await lstat(path.join(upperOf('first'), 'semver'))
    expect(whiteout.isCharacterDevice()).toBe(true)
    // The cache and the second box are untouched.
    expect(existsSync(path.join(lower, 'semver/package.json'))).toBe(true)
    expect(await readFile(path.join(lower, 'is-number/index.js'), 'utf8')).not.toContain('changed')
    expect(await shell(second, 'node -e "console.log(require(\'is-number\')(5))"')).toBe('true\n')
    expect(await shell(second, 'node_modules/.bin/semver 2.0.0')).toBe('2.0.0\n')
    expect(await readdir(upperOf('second'))).toEqual([])
    // The second box runs as a uid of its own, and may change the shared files too.
    expect(await shell(second, 'id -u; echo >> node_modules/semver/LICENSE && echo ok')).toMatch(
      /^6100[1-9]\nok\n/,
    )
  })

  it('installs a package in one box through DEVBOX_EGRESS=registry, into its upper layer only', async () => {
    const output = await shell(
      second,
      'npm install --no-audit --no-fund is-odd@3.0.1 2>&1 | tail -2; node -e "console.log(require(\'is-odd\')(3))"',
      180,
    )
    expect(output).toContain('true')
    expect(existsSync(path.join(upperOf('second'), 'is-odd/package.json'))).toBe(true)
    expect(existsSync(path.join(lower, 'is-odd'))).toBe(false)
    expect(await shell(first, 'ls node_modules')).not.toContain('is-odd')
    // The checkpoint commits package.json, never node_modules.
    await second.checkpoint('Add is-odd')
    const tracked = await shell(second, 'git ls-files')
    expect(tracked).toContain('package.json')
    expect(tracked).not.toContain('node_modules')
  }, 200_000)

  it('mounts the overlay again after a restart, keeping the box layer', async () => {
    const modules = path.join(first.workspacePath, 'node_modules')
    // A file of the box's own, in its upper layer, owned by its uid.
    await shell(first, 'echo mine > node_modules/own-file')
    // A restart of Sprout: released at the stop, mounted again when the box opens.
    await driver.shutdown()
    driver = createDriver()
    await driver.open('first', 'vite-react')
    expect(isMountPoint(modules)).toBe(true)
    // A reboot: nothing mounted any more.
    await driver.shutdown()
    for (const folder of ['workspaces', 'data', 'volumes']) {
      await unmountUnder(path.join(rootDir, folder, 'first'))
    }
    expect(isMountPoint(modules)).toBe(false)
    // …and the boxes come back with other uids (as at the first start after issue 29 gave each
    // box its own): what the box wrote in its layer follows it.
    driver = createDriver({ uid: boxUid + 500 })
    first = await driver.open('first', 'vite-react')
    second = await driver.open('second', 'vite-react')
    expect(isMountPoint(modules)).toBe(true)
    expect(
      await shell(first, 'ls node_modules; node -e "console.log(require(\'is-number\')(5))"'),
    ).toBe('is-number\nown-file\nchanged\n')
    expect(
      await shell(first, 'id -u; echo more >> node_modules/own-file && cat node_modules/own-file'),
    ).toBe(`${boxUid + 500}\nmine\nmore\n`)
  }, 120_000)

  it('unmounts before deleting on destroy and leaves the cache whole', async () => {
    const modules = path.join(first.workspacePath, 'node_modules')
    await driver.destroy('first')
    expect(isMountPoint(modules)).toBe(false)
    expect(existsSync(path.join(rootDir, 'volumes', 'first'))).toBe(false)
    expect(existsSync(path.join(rootDir, 'disks', 'first.img'))).toBe(false)
    expect(existsSync(path.join(rootDir, 'workspaces', 'first'))).toBe(false)
    expect(existsSync(path.join(lower, 'semver/package.json'))).toBe(true)
    expect(await shell(second, 'node_modules/.bin/semver 3.0.0')).toBe('3.0.0\n')
  }, 30_000)

  it('keeps the layer in the driver folder for a box without an image, counted by its disk', async () => {
    const measuredRoot = path.join(base, 'measured-devboxes')
    const measured = createDriver({ disk: 'measured', rootDir: measuredRoot })
    try {
      const box = await measured.provision('vite-react', { id: 'measured' })
      const layer = path.join(measuredRoot, 'layers', 'measured')
      expect(isMountPoint(path.join(box.workspacePath, 'node_modules'))).toBe(true)
      await shell(box, 'head -c 3000000 /dev/urandom > node_modules/blob')
      expect((await stat(path.join(layer, 'upper/blob'))).size).toBe(3_000_000)
      // The upper layer counts against the box's measured limit (128 MB here).
      const output = await shell(
        box,
        'head -c 70000000 /dev/zero > node_modules/a; head -c 70000000 /dev/zero > node_modules/b; sleep 4; echo finished',
      )
      expect(output).toContain('over its limit of 128 MB')
      await measured.destroy('measured')
      expect(isMountPoint(path.join(box.workspacePath, 'node_modules'))).toBe(false)
      expect(existsSync(layer)).toBe(false)
    } finally {
      await measured.shutdown()
    }
  }, 60_000)

  it('copies node_modules when asked to (no root, no overlayfs)', async () => {
    const copyingRoot = path.join(base, 'copying-devboxes')
    const copying = createDriver({ shared: false, rootDir: copyingRoot })
    try {
      const box = await copying.provision('vite-react', { id: 'copied' })
      const modules = path.join(box.workspacePath, 'node_modules')
      expect(isMountPoint(modules)).toBe(false)
      expect(
        existsSync(path.join(copyingRoot, 'volumes', 'copied', 'layers', 'node_modules')),
      ).toBe(false)
      expect(
        await shell(box, 'node_modules/.bin/semver 4.0.0; stat -c %u node_modules/semver'),
      ).toBe(`4.0.0\n${boxUid}\n`)
      // A real copy: its inode is not the cache's.
      expect((await stat(path.join(modules, 'semver/package.json'))).ino).not.toBe(
        (await stat(path.join(lower, 'semver/package.json'))).ino,
      )
      await copying.destroy('copied')
    } finally {
      await copying.shutdown()
    }
  }, 60_000)
})

describe('shared dependencies: detection', () => {
  it('copies when asked to or without root', () => {
    expect(detectDependencySupport('copied', os.tmpdir())).toEqual({
      shared: false,
      reason: 'copies asked for',
    })
    if (process.getuid?.() !== 0) {
      expect(detectDependencySupport('shared', os.tmpdir())).toEqual({
        shared: false,
        reason: 'needs root',
      })
    }
  })
})
