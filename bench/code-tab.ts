// The Code tab (docs/product/versions.md "Code"), in process on PGlite with a real dev box:
// p50/p95 of GET .../files for a workspace of 5,000 more files (a folder of 5,000 files, and the
// root and a folder of a tree of 5,000 files in 50 folders), and of GET .../files/content and
// PUT .../files/content for a 5,000-line file. The editor's side is tests/e2e/perf/code-perf.spec.ts.

import { readyBenchApplication } from './lib/ready-application.ts'
import { milliseconds, p50AndP95 } from './lib/stats.ts'

const requestsPerCase = 50

/** 5,000 files in one folder, and 5,000 more in 50 folders of 100: none under node_modules. */
const manyFiles = [
  'mkdir -p src/flat',
  'for f in $(seq 1 5000); do echo "export const n = $f" > src/flat/file$f.ts; done',
  'for d in $(seq 1 50); do mkdir -p src/tree/folder$d; for f in $(seq 1 100); do echo "export const n = $f" > src/tree/folder$d/file$f.ts; done; done',
  'for l in $(seq 1 5000); do echo "export const line$l = \\"line $l of a long file\\""; done > src/long.ts',
].join('\n')

export async function benchCodeTab(): Promise<Record<string, string>> {
  const { harness, applicationId, as } = await readyBenchApplication()
  try {
    const box = harness.devboxes.box(applicationId)
    if (!box) throw new Error('no dev box')
    const made = await box.exec(manyFiles, { timeoutSeconds: 300 })
    if (made.exitCode !== 0) throw new Error(`making the files failed: ${made.output}`)
    const base = `/api/applications/${applicationId}/files`
    const figures: Record<string, string> = {}

    const time = async (label: string, request: () => Promise<Response>) => {
      const times: number[] = []
      for (let index = 0; index < requestsPerCase; index++) {
        const started = performance.now()
        const answer = await request()
        await answer.json()
        times.push(performance.now() - started)
        if (answer.status !== 200) throw new Error(`${label} answered ${answer.status}`)
      }
      figures[`${label} (${requestsPerCase} requests): p50 / p95 / max`] =
        `${p50AndP95(times)} / ${milliseconds(Math.max(...times))}`
    }

    await time('tree: a folder of 5,000 files', () => as(`${base}?path=src/flat`))
    await time('tree: the root of a workspace of 10,000+ files', () => as(base))
    await time('tree: src (3 folders of the 10,000 files, opened lazily)', () =>
      as(`${base}?path=src`),
    )
    await time('tree: one folder of 100 files of the 50-folder tree', () =>
      as(`${base}?path=src/tree/folder25`),
    )
    await time('open a 5,000-line file', () => as(`${base}/content?path=src/long.ts`))
    const long = await box.files.read('src/long.ts')
    await time('save a 5,000-line file', () =>
      as(`${base}/content`, {
        method: 'PUT',
        body: JSON.stringify({ path: 'src/long.ts', content: long, overwrite: true }),
      }),
    )
    return figures
  } finally {
    await harness.close()
  }
}
