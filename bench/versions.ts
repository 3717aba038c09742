// An app's versions (docs/product/versions.md), in process on PGlite with a real dev box:
// p50/p95 of GET .../versions for an app with 1,000 versions (first page and a middle page), of
// GET .../diff for a version that changed 50 files / 5,000 lines (git in the box), and the time of
// POST .../restore of the starter to its answer (the commit made and recorded), and until the
// preview's dev server serves the restored files.

import { randomUUID } from 'node:crypto'
import http from 'node:http'
import { appVersions } from '@sprout/db/schema/app-versions.ts'
import type { VersionPage } from '@sprout/protocol/api/versions.ts'
import { createTestApp, waitForEditorReady } from '../apps/server/src/testing/app-harness.ts'
import { commitVersion } from '../apps/server/src/versions/record-version.ts'
import { milliseconds, p50AndP95 } from './lib/stats.ts'

const versionCount = 1_000
const requestsPerCase = 100
const restores = 10

/** 50 files of 100 lines each, made in the box (a run's worth of changes). */
const fiftyFiles = [
  'mkdir -p src/bench',
  'for f in $(seq 1 50); do for l in $(seq 1 100); do echo "export const line$l = \\"file $f line $l\\""; done > src/bench/file$f.ts; done',
].join('\n')

export async function benchVersions(): Promise<Record<string, string>> {
  const harness = await createTestApp()
  try {
    const owner = await harness.signUp()
    const organizationId = await harness.createOrganization(owner)
    const headers = { 'organization-id': organizationId }
    const as = (path: string, method = 'GET') =>
      harness.request(path, {
        user: owner,
        headers,
        method,
        ...(method === 'POST' ? { body: '{}' } : {}),
      })
    const response = await harness.request('/api/applications', {
      method: 'POST',
      user: owner,
      headers,
      body: JSON.stringify({ initial_prompt: 'A bench app', model: 'demo' }),
    })
    const applicationId = ((await response.json()) as { id: string }).id
    await waitForEditorReady(harness, owner, organizationId, applicationId)
    const box = harness.devboxes.box(applicationId)
    if (!box) throw new Error('no dev box')
    const base = `/api/applications/${applicationId}/versions`
    const figures: Record<string, string> = {}

    // The starter as version 1, then a version of 50 files / 5,000 lines.
    await as(base)
    await box.exec(fiftyFiles, { timeoutSeconds: 60 })
    const big = await commitVersion(
      { db: harness.database.db, box },
      { applicationId, kind: 'edit', title: 'Edited by Bench: 50 files' },
    )
    if (!big) throw new Error('nothing committed')
    const diffTimes: number[] = []
    for (let index = 0; index < requestsPerCase / 2; index++) {
      const started = performance.now()
      const diff = await as(`${base}/${big.id}/diff`)
      await diff.json()
      diffTimes.push(performance.now() - started)
    }
    figures['diff of 50 files / 5,000 lines (50 requests): p50 / p95'] = p50AndP95(diffTimes)

    const restoreTimes: number[] = []
    const servedTimes: number[] = []
    const first = (await (await as(base)).json()) as VersionPage
    const start = first.versions.find((version) => version.number === 1)
    for (let index = 0; index < restores; index++) {
      const target = index % 2 === 0 ? start : big
      const started = performance.now()
      const restored = await as(`${base}/${target?.id}/restore`, 'POST')
      if (restored.status !== 200) throw new Error(`restore answered ${restored.status}`)
      restoreTimes.push(performance.now() - started)
      // The preview is updated once its dev server serves the restored tree: the 50 files are
      // there after restoring the big version and gone after restoring the starter.
      const expected = target === big
      while ((await devServerServes(box, '/src/bench/file1.ts', 'file 1 line 1')) !== expected) {
        if (performance.now() - started > 30_000) throw new Error('the preview never updated')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      servedTimes.push(performance.now() - started)
    }
    figures[`restore of the starter or back (${restores} restores): p50 / p95 / max`] =
      `${p50AndP95(restoreTimes)} / ${milliseconds(Math.max(...restoreTimes))}`
    figures[`restore → the preview's dev server serves the restored files: p50 / p95 / max`] =
      `${p50AndP95(servedTimes)} / ${milliseconds(Math.max(...servedTimes))}`

    // 1,000 versions: the rows as runs leave them (a few files each).
    const files = [{ path: 'src/App.tsx', added: 12, removed: 3, status: 'modified' }]
    const rows = Array.from({ length: versionCount }, (_, index) => ({
      id: randomUUID(),
      applicationId,
      number: 100 + index,
      kind: 'run',
      commitId: big.commitId,
      title: `Bench change ${index}`,
      files,
    }))
    for (let offset = 0; offset < rows.length; offset += 250) {
      await harness.database.db.insert(appVersions).values(rows.slice(offset, offset + 250))
    }
    for (const [name, query] of Object.entries({
      'first page': '',
      'a middle page': '?cursor=600',
    })) {
      const times: number[] = []
      for (let index = 0; index < requestsPerCase; index++) {
        const started = performance.now()
        const page = (await (await as(`${base}${query}`)).json()) as VersionPage
        times.push(performance.now() - started)
        if (page.versions.length !== 50) throw new Error('not a full page')
      }
      figures[
        `versions list of ${versionCount.toLocaleString('en-US')}+ versions, ${name} (${requestsPerCase} requests): p50 / p95 / max`
      ] = `${p50AndP95(times)} / ${milliseconds(Math.max(...times))}`
    }
    return figures
  } finally {
    await harness.close()
  }
}

/** Whether the box's dev server answers `path` with `text` in it (an absent module gets the page). */
function devServerServes(
  box: {
    devServer: { target: () => { socketPath: string } | { host: string; port: number } | undefined }
  },
  path: string,
  text: string,
): Promise<boolean> {
  const target = box.devServer.target()
  if (!target) return Promise.resolve(false)
  return new Promise((resolve) => {
    const request = http.get({ ...target, path, headers: { host: 'localhost' } }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        body += chunk
      })
      response.on('end', () => resolve(body.includes(text)))
    })
    request.on('error', () => resolve(false))
  })
}
