import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../../logger.ts'
import {
  createFakeTemplates,
  createTestBoxExec,
  testCacheDir,
} from '../../../testing/devbox-support.ts'
import { createLocalDriver } from '../local-driver.ts'
import { bubblewrapWorks, createSandbox, findBubblewrap } from './sandbox.ts'

const bubblewrapPath = findBubblewrap()
const hasBubblewrap = bubblewrapPath !== undefined && bubblewrapWorks(bubblewrapPath)
// /tmp is replaced by an empty tmpfs inside the sandbox anyway; /var/tmp proves the hiding itself.
const testParent = existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir()

describe('sandbox', () => {
  let baseDirectory: string
  let rootDir: string
  let dataDir: string
  let boxA: string
  let boxB: string

  beforeAll(async () => {
    baseDirectory = await mkdtemp(path.join(testParent, 'sprout-sandbox-'))
    rootDir = path.join(baseDirectory, 'devboxes')
    dataDir = path.join(baseDirectory, 'data')
    boxA = path.join(rootDir, 'workspaces', 'box-a')
    boxB = path.join(rootDir, 'workspaces', 'box-b')
    await mkdir(boxA, { recursive: true })
    await mkdir(boxB, { recursive: true })
    await mkdir(dataDir)
    await writeFile(path.join(boxB, 'private.txt'), 'box B private')
    await writeFile(path.join(dataDir, 'vault.key'), 'master key')
  })

  afterAll(async () => {
    await rm(baseDirectory, { recursive: true, force: true })
  })

  const execInBoxA = async (command: string) => {
    const sandbox = createSandbox({
      mode: 'auto',
      stateDirectory: rootDir,
      logger: silentLogger,
    })
    expect(sandbox.enabled).toBe(true)
    const box = createTestBoxExec(sandbox, boxA, 'box-a')
    try {
      return await box.exec(command, { timeoutSeconds: 10 })
    } finally {
      await box.release()
    }
  }

  it.skipIf(!hasBubblewrap)(
    'keeps box A away from box B, the data folder and the rest of the system (needs bubblewrap)',
    async () => {
      const result = await execInBoxA(
        [
          `cat ${boxB}/private.txt || echo "no box B"`,
          `ls ${rootDir}/workspaces`,
          `cat ${dataDir}/vault.key || echo "no data dir"`,
          'echo tampered > /etc/sprout-test 2>/dev/null || echo "system is read-only"',
          'echo mine > written.txt && echo "own workspace is writable"',
        ].join('\n'),
      )
      expect(result.output).not.toContain('box B private')
      expect(result.output).not.toContain('master key')
      expect(result.output).toContain('no box B')
      expect(result.output).toContain('no data dir')
      expect(result.output).toContain('system is read-only')
      expect(result.output).toContain('own workspace is writable')
      expect(result.output.split('\n')).not.toContain('box-a')
      expect(result.output.split('\n')).not.toContain('box-b')
      expect(await readFile(path.join(boxA, 'written.txt'), 'utf8')).toBe('mine\n')
      expect(existsSync('/etc/sprout-test')).toBe(false)
    },
  )

  it.skipIf(!hasBubblewrap)(
    'cannot unmount the hiding or see host processes (needs bubblewrap)',
    async () => {
      const result = await execInBoxA(
        [
          `umount ${rootDir} 2>/dev/null && echo "unmounted" || echo "umount refused"`,
          `cat ${boxB}/private.txt 2>/dev/null || echo "still hidden"`,
          'ls /proc | grep -c "^[0-9]"',
        ].join('\n'),
      )
      expect(result.output).toContain('umount refused')
      expect(result.output).toContain('still hidden')
      const processCount = Number(result.output.trim().split('\n').at(-1))
      expect(processCount).toBeLessThan(10)
    },
  )

  it.skipIf(!hasBubblewrap)('hides the server user’s home folder (needs bubblewrap)', async () => {
    const result = await execInBoxA(`ls -A ${os.homedir()} 2>/dev/null | wc -l`)
    expect(result.output.trim()).toBe('0')
  })

  it.skipIf(!hasBubblewrap)(
    'hides other boxes of the same driver (needs bubblewrap)',
    async () => {
      const driverRoot = path.join(baseDirectory, 'fresh-root')
      const driver = createLocalDriver({
        rootDir: driverRoot,
        templatesDir: await createFakeTemplates(path.join(baseDirectory, 'templates')),
        cacheDir: testCacheDir,
        logger: silentLogger,
      })
      try {
        const first = await driver.provision('vite-react', { id: 'first' })
        const second = await driver.provision('vite-react', { id: 'second' })
        await second.files.write('private.txt', 'second box private')
        const result = await first.exec(
          `ls ${driverRoot}/workspaces; cat ${second.workspacePath}/private.txt; ls ${dataDir} | wc -l`,
          { timeoutSeconds: 10 },
        )
        expect(result.output).not.toContain('second box private')
        expect(result.output.split('\n')).not.toContain('first')
        expect(result.output.split('\n')).not.toContain('second')
        expect(result.output.trim().split('\n').at(-1)).toBe('0')
      } finally {
        await driver.shutdown()
      }
    },
    60_000,
  )

  it.runIf(!hasBubblewrap)(
    'is skipped here: bubblewrap (bwrap) is not installed or not usable',
    () => {
      expect(hasBubblewrap).toBe(false)
    },
  )
})
