import { execFileSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {
  runToolCalls as runScriptedToolCalls,
  type ToolCall,
} from '@sprout/agent/testing/run-tool-calls.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import {
  createLocalDriver,
  type LocalDriver,
  type LocalDriverOptions,
} from '@sprout/devbox/drivers/local/local-driver.ts'
import { findBubblewrap } from '@sprout/devbox/drivers/local/sandbox/sandbox.ts'
import {
  createFakeTemplates,
  hasBubblewrap,
  testCacheDir,
} from '@sprout/devbox/testing/devbox-support.ts'
import { afterAll, beforeAll, describe } from 'vitest'

const isRoot = process.getuid?.() === 0
const hasTool = (name: string) => {
  try {
    execFileSync('which', [name], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Why the full confinement cannot be tested here, or undefined when it can (CI: root + bwrap). */
export const fullConfinementMissing = !findBubblewrap()
  ? 'bubblewrap (bwrap) is not installed'
  : !hasBubblewrap
    ? 'bubblewrap cannot create a sandbox on this machine'
    : !isRoot
      ? 'network namespaces, the box uid and cgroups need the server to run as root'
      : !hasTool('nsenter') || !hasTool('setpriv')
        ? 'nsenter and setpriv (util-linux) are missing'
        : undefined

/** A suite's title, saying why it is skipped on a machine that cannot enforce what it tests. */
export function confinedSuite(title: string): string {
  return fullConfinementMissing ? `${title} (skipped: ${fullConfinementMissing})` : title
}

/** A driver with the fake template (a tiny node dev server) in a fresh folder. */
export async function createTestDriver(options: Partial<LocalDriverOptions> = {}) {
  const baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-security-'))
  const driver = createLocalDriver({
    rootDir: path.join(baseDirectory, 'devboxes'),
    templatesDir: await createFakeTemplates(path.join(baseDirectory, 'templates')),
    cacheDir: testCacheDir,
    ...options,
  })
  return {
    driver,
    baseDirectory,
    close: async () => {
      await driver.shutdown()
      await rm(baseDirectory, { recursive: true, force: true })
    },
  }
}

/** A suite on confined boxes, skipped (saying why) where the machine cannot confine them. */
export function describeConfined(title: string, tests: () => void): void {
  describe.skipIf(fullConfinementMissing)(confinedSuite(title), tests)
}

/**
 * In a suite: a test driver with `options`, made before its tests (then `provision` makes the
 * suite's boxes on it) and removed with its boxes after them.
 */
export function setUpTestDriver(
  options: Partial<LocalDriverOptions>,
  provision: (driver: LocalDriver) => Promise<void>,
): void {
  let setup: Awaited<ReturnType<typeof createTestDriver>> | undefined
  beforeAll(async () => {
    setup = await createTestDriver(options)
    await provision(setup.driver)
  }, 60_000)
  afterAll(async () => {
    await setup?.close()
  })
}

export type { ToolCall }

/** The tool outputs of `calls` made in one step through the agent's real tools, in call order. */
export async function runToolCalls(box: Devbox, calls: ToolCall[]): Promise<string[]> {
  const log = await runScriptedToolCalls(box, calls)
  return log.chunks
    .filter((chunk) => chunk.type === 'tool-output-available' || chunk.type === 'tool-output-error')
    .map((chunk) => JSON.stringify(chunk))
}

/** One shell command through the agent's `shell_exec` tool. */
export async function shell(box: Devbox, command: string, timeout = 60): Promise<string> {
  const [output] = await runToolCalls(box, [{ name: 'shell_exec', input: { command, timeout } }])
  return JSON.parse(output ?? '{}').output?.toString() ?? output ?? ''
}

export type { LocalDriver }
