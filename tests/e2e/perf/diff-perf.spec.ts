import { test } from '@playwright/test'
import type { DiffFile, Version, VersionDiff } from '@sprout/protocol/api/versions.ts'
import { BuilderPage } from '../pages/builder-page.ts'
import { HistoryPanel } from '../pages/history-panel.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from '../support/applications.ts'
import { signUpNewUser } from '../support/session.ts'

// PERF=1 npx playwright test tests/e2e/perf/diff-perf.spec.ts — prints how long the History
// panel takes to show a run's diff of 50 files / 5,000 lines, drawn and syntax-coloured
// (docs/performance.md "Versions: the diff in the browser"). The answer is served here, so the
// figure is the browser's alone; the server's side has its own bench.
test.skip(!process.env.PERF, 'Set PERF=1 to measure')
test.describe.configure({ timeout: DEVBOX_READY_TIMEOUT + 120_000 })
test.use({ trace: 'off' })

const FILES = 50
const LINES_PER_FILE = 100
const OPENS = 10

function bigDiff(version: Version): VersionDiff {
  const files: DiffFile[] = Array.from({ length: FILES }, (_, index) => {
    const body = Array.from({ length: LINES_PER_FILE / 2 }, (_, line) =>
      [
        `-export const value${line} = computeOld(${line}, "text ${index}")`,
        `+export const value${line} = computeNew(${line}, "text ${index}")`,
      ].join('\n'),
    ).join('\n')
    return {
      path: `src/components/Widget${index}.tsx`,
      added: LINES_PER_FILE / 2,
      removed: LINES_PER_FILE / 2,
      status: 'modified',
      binary: false,
      patch: `@@ -1,${LINES_PER_FILE / 2} +1,${LINES_PER_FILE / 2} @@\n${body}\n`,
      lines: LINES_PER_FILE + 1,
      truncated: false,
    }
  })
  return { version, files }
}

test('History: a 50-file / 5,000-line diff, from the click to drawn and coloured', async ({
  page,
}) => {
  await signUpNewUser(page, 'Perf')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Diff perf'))
  const version: Version = {
    id: 'perf-version',
    number: 2,
    kind: 'run',
    commitId: 'a'.repeat(40),
    title: 'A run that changed 50 files',
    runId: null,
    conversationId: null,
    restoredNumber: null,
    author: null,
    createdAt: new Date().toISOString(),
    files: bigDiff({} as Version).files,
    hasDataSnapshot: false,
  }
  await page.route(`**/api/applications/${application.id}/versions`, (route) =>
    route.fulfill({ json: { versions: [version], nextCursor: null, total: 1 } }),
  )
  await page.route(`**/api/applications/${application.id}/versions/perf-version/diff`, (route) =>
    route.fulfill({ json: bigDiff(version) }),
  )
  await new BuilderPage(page).goto(application.id)
  const history = new HistoryPanel(page)
  await history.openButton.click()
  await history.rows.first().waitFor()

  const timings: number[] = []
  for (let open = 0; open < OPENS; open++) {
    // Usable: the files in sight drawn and coloured, and the next task runs without delay.
    const elapsed = await page.evaluate(async () => {
      const row = document.querySelector<HTMLElement>('[data-testid="version-row"]')
      if (!row) throw new Error('no version row')
      const start = performance.now()
      row.click()
      await new Promise<void>((resolve) => {
        const check = () => {
          const patches = Array.from(document.querySelectorAll('[data-testid="patch"]'))
          const inSight = patches.filter(
            (patch) => patch.getBoundingClientRect().top < window.innerHeight,
          )
          const drawn = inSight.every((patch) => patch.querySelector('[class*="hljs-"]'))
          if (patches.length > 0 && drawn) resolve()
          else requestAnimationFrame(check)
        }
        check()
      })
      await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
      return performance.now() - start
    })
    timings.push(elapsed)
    if (open < OPENS - 1) {
      await history.backButton.click()
      await history.rows.first().waitFor()
    }
  }
  // Scrolled to the end, the last file is drawn too.
  const last = history.diffFile(`src/components/Widget${FILES - 1}.tsx`)
  await last.scrollIntoViewIfNeeded()
  await last.locator('.d2h-file-wrapper').waitFor()
  const sorted = [...timings].sort((a, b) => a - b)
  const p95 = sorted[Math.ceil(sorted.length * 0.95) - 1] ?? 0
  console.log(
    JSON.stringify({
      files: FILES,
      lines: FILES * LINES_PER_FILE,
      firstOpenMs: Math.round(timings[0] ?? 0),
      medianMs: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0),
      p95Ms: Math.round(p95),
    }),
  )
})
