// The check of the starter app after a one-file change (docs/product/checks.md "The check"), in
// process on PGlite with a real dev box: p50/p95 of the whole check and of its incremental type
// check, each after src/App.tsx changed. The first (cold) check is reported apart.
import { readFileSync, writeFileSync } from 'node:fs'
import type { CheckPart, CheckReport } from '@sprout/protocol/api/checks.ts'
import { runCheck } from '../apps/server/src/checks/service.ts'
import { readyBenchApplication } from './lib/ready-application.ts'
import { milliseconds, p50AndP95 } from './lib/stats.ts'

const checks = 10

const durationOf = (report: CheckReport, name: CheckPart['name']) =>
  report.parts.find((part) => part.name === name)?.durationMs ?? Number.NaN

const totalOf = (report: CheckReport) =>
  Date.parse(report.finishedAt ?? report.startedAt) - Date.parse(report.startedAt)

const memoryCgroup = (boxId: string) => `/sys/fs/cgroup/memory/sprout/${boxId}`

/** The box's memory cgroup's high-water mark since it was last reset (cgroup v1, as root). */
function peakMemory(boxId: string): string {
  try {
    const bytes = Number(readFileSync(`${memoryCgroup(boxId)}/memory.max_usage_in_bytes`, 'utf8'))
    return `${Math.round(bytes / 1024 / 1024)} MiB`
  } catch {
    return 'not measured (no cgroup v1 memory controller for boxes here)'
  }
}

function resetPeakMemory(boxId: string) {
  try {
    writeFileSync(`${memoryCgroup(boxId)}/memory.max_usage_in_bytes`, '0')
  } catch {
    // Measured only where the box has a memory cgroup.
  }
}

export async function benchChecks(): Promise<Record<string, string>> {
  const { harness, applicationId } = await readyBenchApplication()
  try {
    const box = harness.devboxes.box(applicationId)
    if (!box) throw new Error('no dev box')
    const context = { db: harness.created.db, box, applicationId }
    const check = async () => {
      const report = await runCheck(context, { trigger: 'manual', runId: null })
      if (report.state !== 'passed') throw new Error(`the check failed: ${JSON.stringify(report)}`)
      return report
    }
    const original = await box.files.read('src/App.tsx')
    const cold = await check()
    resetPeakMemory(box.id)
    const totals: number[] = []
    const parts: Record<CheckPart['name'], number[]> = {
      types: [],
      build: [],
      health: [],
      errors: [],
      acceptance: [],
    }
    for (let index = 0; index < checks; index++) {
      await box.files.write(
        'src/App.tsx',
        `${original}\nexport const benchChange${index} = ${index}\n`,
      )
      const report = await check()
      totals.push(totalOf(report))
      for (const name of Object.keys(parts) as CheckPart['name'][]) {
        parts[name].push(durationOf(report, name))
      }
    }
    await box.files.write('src/App.tsx', original)
    return {
      'first check (cold: no type-check cache): whole / type check': `${milliseconds(totalOf(cold))} / ${milliseconds(durationOf(cold, 'types'))}`,
      [`check after a one-file change (${checks} checks): p50 / p95`]: p50AndP95(totals),
      'its incremental type check: p50 / p95': p50AndP95(parts.types),
      'its build (client and server): p50 / p95': p50AndP95(parts.build),
      'its GET /api/health: p50 / p95': p50AndP95(parts.health),
      'its new error groups: p50 / p95': p50AndP95(parts.errors),
      "its acceptance tests (the starter's, in the box's Chromium): p50 / p95": p50AndP95(
        parts.acceptance,
      ),
      "the box's peak memory over these checks (its limit: 1,024 MiB)": peakMemory(box.id),
    }
  } finally {
    await harness.close()
  }
}
