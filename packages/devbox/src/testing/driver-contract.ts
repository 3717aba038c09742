// Long file: the one contract every driver passes (files, commands, lifecycle), each case a few
// lines on one shared box; split, its groups would only pass the box between files.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devServerAnswers, requestDevServer } from '../dev-server-request.ts'
import {
  type Devbox,
  type DevboxDriver,
  type PackType,
  WorkspacePathError,
} from '../devbox-driver.ts'

/**
 * What every DevboxDriver must do, whatever runs its boxes (docs/architecture/scale-out.md
 * "A second driver: the contract suite"). One box serves the whole suite, in the order a box
 * lives, so a slow driver pays for one provision.
 */
export type DriverContractOptions = {
  /** Shown in the suite's title, e.g. `local`. */
  name: string
  /** Called once, before the box is provisioned. */
  createDriver: () => DevboxDriver | Promise<DevboxDriver>
  /** Called once, after the box is destroyed and the driver shut down. */
  cleanUp?: () => Promise<void>
  packType?: PackType
  /** Text the template's dev server answers at `/` once started. */
  devServerPage: string | RegExp
  /** Milliseconds for provisioning and starting a dev server (60 s unless told). */
  startTimeoutMs?: number
}

/** What the groups of the suite share; the box changes when it is opened again. */
type Contract = {
  packType: PackType
  startTimeoutMs: number
  driver: () => DevboxDriver
  box: () => Devbox
  replaceBox: (box: Devbox) => void
  /** True when the box's dev server answers `/` with the template's page. */
  pageAnswers: () => Promise<boolean>
}

const boxId = 'contract-box'
const outsideCodes = ['outside-workspace', 'refused']

export function describeDriverContract(options: DriverContractOptions): void {
  describe(`DevboxDriver contract: ${options.name}`, () => {
    let driver: DevboxDriver | undefined
    let box: Devbox | undefined
    const contract: Contract = {
      packType: options.packType ?? 'vite-react',
      startTimeoutMs: options.startTimeoutMs ?? 60_000,
      driver: () => required(driver),
      box: () => required(box),
      replaceBox: (next) => {
        box = next
      },
      pageAnswers: async () => {
        const page = await requestDevServer(contract.box().devServer.target(), '/').catch(
          () => undefined,
        )
        return page?.status === 200 && matches(page.body, options.devServerPage)
      },
    }

    beforeAll(async () => {
      driver = await options.createDriver()
      box = await driver.provision(contract.packType, { id: boxId })
    }, contract.startTimeoutMs)

    afterAll(async () => {
      await driver?.destroy(boxId).catch(() => {})
      await driver?.shutdown()
      await options.cleanUp?.()
    }, contract.startTimeoutMs)

    describeProvisioning(contract)
    describeFiles(contract)
    describeCommands(contract)
    describeLifecycle(contract)
  })
}

function describeProvisioning(contract: Contract) {
  it('provisions a box whose dev server answers', async () => {
    const box = contract.box()
    expect(box.id).toBe(boxId)
    expect(box.packType).toBe(contract.packType)
    expect(box.devServer.status()).toBe('running')
    expect(await contract.pageAnswers()).toBe(true)
  })

  it('refuses a second box with the same id, and ids that are not names', async () => {
    const driver = contract.driver()
    await expect(driver.provision(contract.packType, { id: boxId })).rejects.toThrow()
    await expect(driver.provision(contract.packType, { id: '../escape' })).rejects.toThrow()
    expect(await contract.pageAnswers()).toBe(true)
  })
}

function describeFiles(contract: Contract) {
  it('writes, reads, lists, searches and deletes files', async () => {
    const { files } = contract.box()
    await files.write('contract/notes/first.txt', 'hello from the contract\n')
    expect(await files.read('contract/notes/first.txt')).toBe('hello from the contract\n')
    expect(await files.list('contract')).toContainEqual({
      path: 'contract/notes',
      type: 'directory',
      size: expect.any(Number),
    })
    const all = await files.list('contract', { recursive: true })
    expect(all).toContainEqual({ path: 'contract/notes/first.txt', type: 'file', size: 24 })
    expect(await files.search({ pattern: 'from the contract', path: 'contract' })).toEqual([
      { path: 'contract/notes/first.txt', line: 1, text: 'hello from the contract' },
    ])
    await files.delete('contract/notes/first.txt')
    await expectRefused(files.read('contract/notes/first.txt'), ['not-found'])
  })

  it('refuses paths outside the workspace', async () => {
    const box = contract.box()
    for (const relativePath of ['../outside.txt', '/etc/passwd', 'src/../../outside.txt']) {
      await expectRefused(box.files.read(relativePath), outsideCodes)
      await expectRefused(box.files.write(relativePath, 'no'), outsideCodes)
      await expectRefused(box.files.list(relativePath), outsideCodes)
      await expectRefused(box.files.delete(relativePath), outsideCodes)
    }
    await expectRefused(box.exec('pwd', { timeoutSeconds: 5, cwd: '../' }), outsideCodes)
  })

  it('does not follow a symbolic link out of the workspace', async () => {
    const box = contract.box()
    await box.exec('ln -s /etc contract-link', { timeoutSeconds: 10 })
    const linkCodes = ['symbolic-link', 'refused']
    await expectRefused(box.files.read('contract-link/hostname'), linkCodes)
    await expectRefused(box.files.write('contract-link/sprout', 'no'), linkCodes)
    await box.exec('rm contract-link', { timeoutSeconds: 10 })
  })

  it('copies a folder out with its files and folders, never a link or what it points to', async () => {
    const box = contract.box()
    await box.exec(
      'mkdir -p contract-out/assets && printf page > contract-out/index.html && printf x > contract-out/assets/a.js && ln -s /etc/hostname contract-out/host-link && ln -s /etc contract-out/etc-link',
      { timeoutSeconds: 10 },
    )
    const destination = await mkdtemp(path.join(os.tmpdir(), 'sprout-contract-out-'))
    try {
      await box.copyFolderOut('contract-out', path.join(destination, 'copy'))
      const copied = await readdir(path.join(destination, 'copy'), { recursive: true })
      expect(copied.sort()).toEqual(['assets', 'assets/a.js', 'index.html'])
      expect(await readFile(path.join(destination, 'copy/index.html'), 'utf8')).toBe('page')
      await expectRefused(
        box.copyFolderOut('contract-out/etc-link', path.join(destination, 'no')),
        ['symbolic-link', 'not-a-directory'],
      )
      await expectRefused(box.copyFolderOut('no-such-folder', path.join(destination, 'no')), [
        'not-found',
      ])
      await expectRefused(box.copyFolderOut('../', path.join(destination, 'no')), outsideCodes)
    } finally {
      await rm(destination, { recursive: true, force: true })
      await box.exec('rm -rf contract-out', { timeoutSeconds: 10 })
    }
  })
}

function describeCommands(contract: Contract) {
  it('runs a command in the workspace and gives its output and exit code', async () => {
    const box = contract.box()
    await box.files.write('contract/input.txt', 'from a file\n')
    const streamed: string[] = []
    const result = await box.exec('cat input.txt && echo "$CONTRACT_VALUE" && exit 3', {
      timeoutSeconds: 10,
      cwd: 'contract',
      env: { CONTRACT_VALUE: 'from the environment' },
      onOutput: (chunk) => streamed.push(chunk),
    })
    expect(result).toMatchObject({ exitCode: 3, truncated: false, timedOut: false })
    expect(result.output).toBe('from a file\nfrom the environment\n')
    expect(streamed.join('')).toBe(result.output)
    const written = await box.exec('echo made by a command > contract/made.txt', {
      timeoutSeconds: 10,
    })
    expect(written.exitCode).toBe(0)
    expect(await box.files.read('contract/made.txt')).toBe('made by a command\n')
  })

  it('stops a command at its timeout or when aborted, and caps its output', async () => {
    const box = contract.box()
    const slow = await box.exec('sleep 30', { timeoutSeconds: 1 })
    expect(slow.timedOut).toBe(true)
    expect(slow.durationMs).toBeLessThan(15_000)

    const controller = new AbortController()
    setTimeout(() => controller.abort(), 300)
    const aborted = await box.exec('sleep 30', { timeoutSeconds: 20, signal: controller.signal })
    expect(aborted.aborted).toBe(true)

    const long = await box.exec('head -c 100000 /dev/zero | tr "\\0" x', {
      timeoutSeconds: 10,
      outputLimitBytes: 1000,
    })
    expect(long.truncated).toBe(true)
    expect(long.output.length).toBeLessThanOrEqual(1000)
  }, 30_000)

  it('commits changes at a checkpoint and nothing when the workspace is clean', async () => {
    const box = contract.box()
    expect(await box.checkpoint('Contract changes')).toMatch(/^[0-9a-f]{40}$/)
    expect(await box.checkpoint('Nothing changed')).toBeUndefined()
  })
}

function describeLifecycle(contract: Contract) {
  const { startTimeoutMs } = contract

  it(
    'stops and starts the dev server',
    async () => {
      const { devServer } = contract.box()
      const target = devServer.target()
      await devServer.stop()
      expect(devServer.status()).toBe('stopped')
      expect(devServer.target()).toBeUndefined()
      expect(await devServerAnswers(target)).toBe(false)
      await devServer.start()
      expect(devServer.status()).toBe('running')
      expect(await contract.pageAnswers()).toBe(true)
    },
    startTimeoutMs,
  )

  it(
    'suspends an idle box and brings it back on the next start',
    async () => {
      const box = contract.box()
      // Optional: a driver without it only stops the dev server of an idle box.
      if (!box.suspend) return
      await box.suspend()
      expect(box.devServer.status()).toBe('stopped')
      expect((await box.exec('echo awake', { timeoutSeconds: 10 })).output).toBe('awake\n')
      await box.devServer.start()
      expect(await contract.pageAnswers()).toBe(true)
    },
    startTimeoutMs,
  )

  it(
    'opens the box again after a shutdown, its workspace intact',
    async () => {
      const driver = contract.driver()
      await driver.shutdown()
      expect(contract.box().devServer.status()).toBe('stopped')
      contract.replaceBox(await driver.open(boxId, contract.packType))
      await waitUntil(contract.pageAnswers, startTimeoutMs)
      expect(await contract.box().files.read('contract/made.txt')).toBe('made by a command\n')
    },
    startTimeoutMs * 2,
  )

  it(
    'destroys the box: its dev server gone, its workspace no longer opens',
    async () => {
      const driver = contract.driver()
      const target = contract.box().devServer.target()
      await driver.destroy(boxId)
      expect(await devServerAnswers(target)).toBe(false)
      await expect(driver.open(boxId, contract.packType)).rejects.toThrow()
    },
    startTimeoutMs,
  )
}

/** Rejects with a WorkspacePathError of one of `codes`. */
async function expectRefused(attempt: Promise<unknown>, codes: string[]) {
  const error = await attempt.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error, 'the driver must refuse this path').toBeInstanceOf(WorkspacePathError)
  expect(codes).toContain((error as WorkspacePathError).code)
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`)
    await delay(100)
  }
}

function required<Value>(value: Value | undefined): Value {
  if (value === undefined) throw new Error('The contract suite set-up did not finish')
  return value
}

function matches(text: string, expected: string | RegExp): boolean {
  return typeof expected === 'string' ? text.includes(expected) : expected.test(text)
}
