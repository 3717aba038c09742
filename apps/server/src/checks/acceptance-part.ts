import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { boxBrowser } from '@sprout/devbox/box-browser/box-browser.ts'
import { boxChromiumEnvironment } from '@sprout/devbox/box-chromium.ts'
import { WorkspacePathError } from '@sprout/devbox/devbox-driver.ts'
import type { CheckProblem } from '@sprout/protocol/api/checks.ts'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { CHECK_FOLDER, type PartContext, type PartOutcome } from './part-types.ts'
import { keptProblems, plainOutput, problem } from './problem-parsers.ts'
import {
  type AcceptanceFailure,
  type PlaywrightJsonReport,
  readAcceptanceFailures,
} from './read-acceptance-report.ts'

// docs/product/checks.md "Acceptance tests": the app's tests/acceptance/*.spec.ts, run by its own
// @playwright/test inside its box (its user, network, seccomp filter and limits) against its dev
// server, with the box's Chromium. Each failing test is a problem with its screenshot.

/** Where the run's report and screenshots are written in the workspace (ignored by git). */
const ACCEPTANCE_FOLDER = `${CHECK_FOLDER}/acceptance`
const TEST_FOLDER = 'tests/acceptance'
/** Screenshots stored per check: enough to show what failed, not one per test of a broken app. */
export const ACCEPTANCE_SCREENSHOTS_KEPT = 3

/** The command's own exit codes for what is missing, told apart from a failing test (1). */
const noChromium = 86
const noRunner = 87

const skipped = (note: string): PartOutcome => ({
  status: 'skipped',
  problems: [],
  problemCount: 0,
  note,
})

export const ACCEPTANCE_NOTES = {
  noTests: `No acceptance tests in this app (${TEST_FOLDER}/*.spec.ts)`,
  noChromium: 'No Chromium in this box (Debian’s chromium package)',
  noRunner: 'The app has no @playwright/test: npm install -D @playwright/test@1',
} as const

async function hasTests(context: PartContext): Promise<boolean> {
  try {
    const entries = await context.box.files.list(TEST_FOLDER, { recursive: true })
    return entries.some(
      (entry) => entry.type === 'file' && /\.spec\.[cm]?[jt]sx?$/.test(entry.path),
    )
  } catch (error) {
    if (error instanceof WorkspacePathError) return false
    throw error
  }
}

export async function acceptance(context: PartContext): Promise<PartOutcome> {
  if (!(await hasTests(context))) return skipped(ACCEPTANCE_NOTES.noTests)
  const { devServer } = context.box
  if (devServer.status() !== 'running') await devServer.start()
  const baseUrl = devServer.urlInside?.()
  if (!baseUrl) {
    return {
      status: 'failed',
      ...keptProblems([problem({ message: 'The dev server is not running' })]),
      note: null,
    }
  }
  // The agent's browser (its own Chromium, kept between calls) goes first: two browsers, the
  // runner and Vite at once would not fit the box's memory (docs/decisions/045-acceptance-tests-in-the-box.md).
  boxBrowser(context.box).close()
  const command = [
    `[ -x "$CHROMIUM_PATH" ] || exit ${noChromium}`,
    `[ -x node_modules/.bin/playwright ] || exit ${noRunner}`,
    `rm -rf ${ACCEPTANCE_FOLDER}`,
    `exec node_modules/.bin/playwright test --reporter=json --output=${ACCEPTANCE_FOLDER}/results`,
  ].join('\n')
  const result = await context.box.exec(command, {
    timeoutSeconds: context.timeoutSeconds,
    signal: context.signal,
    outputLimitBytes: 64 * 1024,
    env: {
      ...boxChromiumEnvironment(),
      SPROUT_BASE_URL: baseUrl,
      PLAYWRIGHT_JSON_OUTPUT_FILE: `${ACCEPTANCE_FOLDER}/report.json`,
      NO_COLOR: '1',
      FORCE_COLOR: '0',
      CI: '1',
    },
  })
  if (result.exitCode === noChromium) return skipped(ACCEPTANCE_NOTES.noChromium)
  if (result.exitCode === noRunner) return skipped(ACCEPTANCE_NOTES.noRunner)
  if (result.timedOut) {
    return {
      status: 'timed-out',
      problems: [],
      problemCount: 0,
      note: `Timed out after ${context.timeoutSeconds} s`,
    }
  }
  if (result.exitCode === 0) return { status: 'passed', problems: [], problemCount: 0, note: null }
  return failedTests(context, result.output)
}

/** The report and screenshots copied out of the box, read into problems. */
async function failedTests(context: PartContext, output: string): Promise<PartOutcome> {
  const copy = await mkdtemp(path.join(os.tmpdir(), 'sprout-acceptance-'))
  try {
    let report: PlaywrightJsonReport | undefined
    try {
      await context.box.copyFolderOut(ACCEPTANCE_FOLDER, copy)
      report = JSON.parse(await readFile(path.join(copy, 'report.json'), 'utf8'))
    } catch {
      report = undefined
    }
    const failures = report ? readAcceptanceFailures(report) : []
    if (failures.length === 0) {
      // No report (a broken config, a crash before any test): the runner's own words.
      const text = cutText(plainOutput(output).trim(), 2000, 'end')
      const first =
        text.split('\n').find((line) => /error/i.test(line)) ?? 'The acceptance tests failed'
      return { status: 'failed', ...keptProblems([problem({ message: first, text })]), note: null }
    }
    const problems: CheckProblem[] = []
    let shots = 0
    for (const failure of failures) {
      const screenshot =
        shots < ACCEPTANCE_SCREENSHOTS_KEPT
          ? await storedScreenshot(context, copy, failure)
          : undefined
      if (screenshot) shots += 1
      problems.push(failureProblem(failure, screenshot))
    }
    return { status: 'failed', ...keptProblems(problems), note: null }
  } finally {
    await rm(copy, { recursive: true, force: true })
  }
}

function failureProblem(
  failure: AcceptanceFailure,
  screenshot: CheckProblem['screenshot'] | undefined,
): CheckProblem {
  const assertion = failure.message.split('\n').find((line) => line.trim() !== '') ?? 'Failed'
  const found = problem({
    file: failure.file,
    line: failure.line,
    column: failure.column,
    message: failure.title ? `${failure.title}: ${assertion.replace(/^Error: /, '')}` : assertion,
    text: [failure.title, failure.message, failure.snippet].filter(Boolean).join('\n\n'),
  })
  return screenshot ? { ...found, screenshot } : found
}

/** The failure's screenshot, stored as an image of the check; none when it cannot be. */
async function storedScreenshot(
  context: PartContext,
  copy: string,
  failure: AcceptanceFailure,
): Promise<CheckProblem['screenshot'] | undefined> {
  if (!context.storeScreenshot || !failure.screenshot) return undefined
  // The report names the file as the box saw it; its copy has the same path below the folder.
  const marker = `${ACCEPTANCE_FOLDER}/`
  const at = failure.screenshot.lastIndexOf(marker)
  if (at < 0) return undefined
  const relative = path.normalize(failure.screenshot.slice(at + marker.length))
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined
  try {
    const bytes = await readFile(path.join(copy, relative))
    return await context.storeScreenshot(bytes)
  } catch {
    return undefined
  }
}
