import path from 'node:path'
import { plainOutput } from './problem-parsers.ts'

// The parts of @playwright/test's JSON report the acceptance part reads (its reporter's
// JSONReport types): failing tests, their first error and place, and their screenshot.

type Place = { file: string; line: number; column: number }
type ReportError = { message?: string; stack?: string; snippet?: string; location?: Place }
type ReportResult = {
  status?: string
  error?: ReportError
  errors?: ReportError[]
  attachments?: { name?: string; path?: string; contentType?: string }[]
}
type ReportSpec = {
  title?: string
  file?: string
  line?: number
  column?: number
  tests?: { status?: string; results?: ReportResult[] }[]
}
type ReportSuite = { title?: string; file?: string; specs?: ReportSpec[]; suites?: ReportSuite[] }

export type PlaywrightJsonReport = {
  config?: { configFile?: string; rootDir?: string }
  suites?: ReportSuite[]
  errors?: ReportError[]
}

export type AcceptanceFailure = {
  /** The test's name with its describe blocks ('guest book › signs the book'); '' for a load error. */
  title: string
  /** Relative to the workspace, `/` separators. */
  file: string | null
  line: number | null
  column: number | null
  message: string
  snippet: string
  /** The screenshot's path as the box wrote it. */
  screenshot: string | undefined
}

/** Failing tests first to last, then errors outside any test (a spec that does not load). */
export function readAcceptanceFailures(report: PlaywrightJsonReport): AcceptanceFailure[] {
  const root = report.config?.configFile
    ? path.posix.dirname(report.config.configFile)
    : report.config?.rootDir
  const relative = (file: string | undefined) => {
    if (!file) return null
    if (!root || !path.posix.isAbsolute(file)) return file
    const inside = path.posix.relative(root, file)
    return inside.startsWith('..') ? file : inside
  }
  const testRoot = report.config?.rootDir
  const failures: AcceptanceFailure[] = []
  const visit = (suite: ReportSuite, titles: string[]) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue
        const result = test.results?.findLast((each) => each.status !== 'skipped')
        const error = result?.error ?? result?.errors?.[0]
        const specFile = spec.file && testRoot ? path.posix.join(testRoot, spec.file) : spec.file
        const place = error?.location ?? {
          file: specFile ?? '',
          line: spec.line ?? 0,
          column: spec.column ?? 0,
        }
        failures.push({
          title: [...titles, spec.title ?? ''].filter(Boolean).join(' › '),
          file: relative(place.file),
          line: place.line || null,
          column: place.column || null,
          message: plainOutput(error?.message ?? `The test ended ${result?.status ?? 'badly'}`),
          snippet: plainOutput(error?.snippet ?? ''),
          screenshot: result?.attachments?.find(
            (attachment) => attachment.name === 'screenshot' && attachment.path,
          )?.path,
        })
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title ?? ''])
  }
  // A file's own suite is titled by its file name: the test's name starts below it.
  for (const suite of report.suites ?? []) visit(suite, [])
  for (const error of report.errors ?? []) {
    failures.push({
      title: '',
      file: relative(error.location?.file),
      line: error.location?.line ?? null,
      column: error.location?.column ?? null,
      message: plainOutput(error.message ?? 'The acceptance tests did not load'),
      snippet: plainOutput(error.snippet ?? ''),
      screenshot: undefined,
    })
  }
  return failures
}
