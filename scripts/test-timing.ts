// Where `npm test`'s time goes (docs/performance.md "CI time"): the slowest Vitest suites and
// Playwright spec files, and the share of each runner's time spent outside the tests themselves.
import type { SuiteTiming } from './vitest-timing-reporter.ts'

type Report = Record<string, unknown> | undefined
type Timed = { name: string; ms: number; setupMs: number }

type PlaywrightSuite = {
  file?: string
  suites?: PlaywrightSuite[]
  specs?: { tests?: { results?: { duration?: number }[] }[] }[]
}

/** Each Playwright spec file's time: its tests and their retries, hooks included. */
function playwrightSpecs(report: Report): Timed[] {
  const byFile = new Map<string, number>()
  const visit = (suite: PlaywrightSuite, file: string) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        for (const result of test.results ?? []) {
          byFile.set(file, (byFile.get(file) ?? 0) + (result.duration ?? 0))
        }
      }
    }
    for (const child of suite.suites ?? []) visit(child, file)
  }
  for (const suite of (report?.suites ?? []) as PlaywrightSuite[]) {
    visit(suite, `tests/e2e/${suite.file ?? ''}`)
  }
  return [...byFile].map(([name, ms]) => ({ name, ms, setupMs: 0 }))
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** The closing table: the 20 slowest of both runners, and Vitest's set-up share. */
export function timingReport(suites: SuiteTiming[], playwright: Report, slowest = 20): string {
  const specs = playwrightSpecs(playwright)
  const all = [
    ...suites.map((suite) => ({ ...suite, runner: 'vitest' })),
    ...specs.map((spec) => ({ ...spec, runner: 'playwright' })),
  ]
  if (all.length === 0) return ''
  const rows = all
    .sort((a, b) => b.ms - a.ms)
    .slice(0, slowest)
    .map(
      (entry) =>
        `  ${seconds(entry.ms).padStart(8)}  ${entry.runner.padEnd(10)} ${entry.name}` +
        ('project' in entry ? ` [${entry.project}] (set-up ${seconds(entry.setupMs)})` : ''),
    )
  const vitestMs = suites.reduce((sum, suite) => sum + suite.ms, 0)
  const setupMs = suites.reduce((sum, suite) => sum + suite.setupMs, 0)
  const playwrightMs = specs.reduce((sum, spec) => sum + spec.ms, 0)
  const share = vitestMs > 0 ? Math.round((setupMs / vitestMs) * 100) : 0
  const byProject = new Map<string, number>()
  for (const suite of suites) {
    byProject.set(suite.project, (byProject.get(suite.project) ?? 0) + suite.ms)
  }
  const projects = [...byProject]
    .sort((a, b) => b[1] - a[1])
    .map(([project, ms]) => `${project} ${seconds(ms)}`)
    .join(', ')
  return [
    `\nThe ${rows.length} slowest suites and specs (time summed over workers):`,
    ...rows,
    `Vitest: ${seconds(vitestMs)} in ${suites.length} suites, ${share} % of it set-up ` +
      `(imports, harness start, box provisioning); Playwright: ${seconds(playwrightMs)} in ${specs.length} spec files.`,
    `Vitest by project: ${projects}.`,
  ].join('\n')
}
