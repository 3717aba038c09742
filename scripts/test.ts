// `npm test`: lint, typecheck, unit + integration (Vitest) and browser (Playwright) tests, and the
// agent evaluation's example specifications with the Demo model.
// Prints one closing line 'tests: N passed, N failed' summing Vitest and Playwright.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { timingReport } from './test-timing.ts'
import type { SuiteTiming } from './vitest-timing-reporter.ts'

const reportDir = '.tmp/test-reports'
rmSync(reportDir, { recursive: true, force: true })
mkdirSync(reportDir, { recursive: true })

type Step = { name: string; command: string[] }
const steps: Step[] = [
  { name: 'lint', command: ['npx', 'biome', 'check', '.'] },
  { name: 'typecheck', command: ['npx', 'tsc', '--noEmit', '-p', 'tsconfig.json'] },
  {
    name: 'unit and integration',
    command: [
      'npx',
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${reportDir}/vitest.json`,
      '--reporter=./scripts/vitest-timing-reporter.ts',
    ],
  },
  { name: 'browser', command: ['npx', 'playwright', 'test'] },
  // docs/product/agent-eval.md: the example specifications pass with the Demo model.
  {
    name: 'agent-eval',
    command: ['npm', 'run', 'agent-eval', '--', '--model', 'demo', '--concurrency', '2'],
  },
]

const only = process.argv.slice(2)
const failedSteps: string[] = []
for (const step of steps) {
  if (only.length > 0 && !only.includes(step.name.split(' ')[0] ?? '')) continue
  console.log(`\n▶ ${step.name}: ${step.command.join(' ')}`)
  const started = Date.now()
  const result = spawnSync(step.command[0] ?? 'npx', step.command.slice(1), {
    stdio: 'inherit',
    env: {
      ...process.env,
      PLAYWRIGHT_JSON_OUTPUT_NAME: `${reportDir}/playwright.json`,
      VITEST_TIMING_OUTPUT: `${reportDir}/vitest-timing.json`,
    },
  })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  if (result.status !== 0) failedSteps.push(step.name)
  console.log(`◀ ${step.name}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${seconds} s`)
}

function readJson(file: string): Record<string, unknown> | undefined {
  return existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)
    : undefined
}
const vitest = readJson(`${reportDir}/vitest.json`)
const playwright = readJson(`${reportDir}/playwright.json`)
const playwrightStats = (playwright?.stats ?? {}) as Record<string, number>
// Playwright counts a test that passed on retry as flaky: it passed.
const passed =
  Number(vitest?.numPassedTests ?? 0) +
  Number(playwrightStats.expected ?? 0) +
  Number(playwrightStats.flaky ?? 0)
const failed = Number(vitest?.numFailedTests ?? 0) + Number(playwrightStats.unexpected ?? 0)
const skipped = Number(vitest?.numPendingTests ?? 0) + Number(playwrightStats.skipped ?? 0)

const suiteTimings =
  (readJson(`${reportDir}/vitest-timing.json`) as unknown as SuiteTiming[] | undefined) ?? []
const timing = timingReport(suiteTimings, playwright)
if (timing) console.log(timing)

// CI shows only the end of the output: the failed tests are named again here, each with the
// start of its message.
const failedTests = [...failedVitestTests(vitest), ...failedPlaywrightTests(playwright)]
if (failedTests.length > 0) console.log(`\nFailed tests:\n${failedTests.join('\n')}`)
if (failedSteps.length > 0) console.log(`\nFailed steps: ${failedSteps.join(', ')}`)
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failedSteps.length > 0 ? 1 : 0)

function firstLines(message: unknown): string {
  return String(message ?? '')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, 4)
    .map((line) => `    ${line.slice(0, 300)}`)
    .join('\n')
}

type VitestFile = {
  name?: string
  status?: string
  message?: string
  assertionResults?: { fullName?: string; status?: string; failureMessages?: string[] }[]
}
function failedVitestTests(report: Record<string, unknown> | undefined): string[] {
  const files = (report?.testResults ?? []) as VitestFile[]
  return files.flatMap((file) => {
    const where = path.relative(process.cwd(), file.name ?? '')
    const failedAssertions = (file.assertionResults ?? []).filter(
      (test) => test.status === 'failed',
    )
    if (failedAssertions.length === 0 && file.status === 'failed')
      return [`- ${where}\n${firstLines(file.message)}`]
    return failedAssertions.map(
      (test) => `- ${where} › ${test.fullName}\n${firstLines(test.failureMessages?.[0])}`,
    )
  })
}

type PlaywrightSuite = {
  title?: string
  file?: string
  suites?: PlaywrightSuite[]
  specs?: {
    title?: string
    line?: number
    ok?: boolean
    tests?: { results?: { error?: { message?: string } }[] }[]
  }[]
}
function failedPlaywrightTests(report: Record<string, unknown> | undefined): string[] {
  const visit = (suite: PlaywrightSuite): string[] => [
    ...(suite.specs ?? [])
      .filter((spec) => spec.ok === false)
      .map((spec) => {
        const error = spec.tests?.[0]?.results?.at(-1)?.error?.message
        return `- ${suite.file ?? suite.title}:${spec.line} › ${spec.title}\n${firstLines(error)}`
      }),
    ...(suite.suites ?? []).flatMap(visit),
  ]
  return ((report?.suites ?? []) as PlaywrightSuite[]).flatMap(visit)
}
