// `npm run bench -- --compare`: the figures of this run against bench/baseline.json, the last
// accepted run on the standard machine (docs/performance.md, "Kept fast: bench --compare").
import { readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import type { Metric } from './lib/metrics.ts'

export const baselinePath = new URL('./baseline.json', import.meta.url)

/** A figure this much worse than its baseline is marked; the machines' noise is about as large. */
export const worseThreshold = 1.25

export type BaselineMetric = Metric & { benchmark: string }

export type Baseline = {
  note: string
  date: string
  machine: { cpu: string; cores: number; memoryGiB: number; loadAverage: string }
  node: string
  command: string
  metrics: BaselineMetric[]
}

export function describeMachine(): Baseline['machine'] {
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    loadAverage: os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' / '),
  }
}

export async function readBaseline(): Promise<Baseline | undefined> {
  try {
    return JSON.parse(await readFile(baselinePath, 'utf8')) as Baseline
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

export async function writeBaseline(
  metrics: BaselineMetric[],
  details: { note: string; command: string; machine: Baseline['machine'] },
): Promise<void> {
  const baseline: Baseline = {
    note: details.note,
    date: new Date().toISOString(),
    machine: details.machine,
    node: process.version,
    command: details.command,
    // Four significant digits: the noise is far larger, and the file's diffs stay readable.
    metrics: metrics.map((metric) => ({ ...metric, value: Number(metric.value.toPrecision(4)) })),
  }
  await writeFile(baselinePath, `${JSON.stringify(baseline, null, 2)}\n`)
}

/** How many times worse `now` is than `before`: above 1 is worse, whatever the direction. */
export function worseFactor(metric: Metric, before: number): number {
  return metric.better === 'lower' ? metric.value / before : before / metric.value
}

function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return '—'
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2
  const number = value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  })
  return unit === '×' ? `${number}×` : `${number} ${unit}`
}

function renderTable(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) =>
    Math.max(...rows.map((row) => [...(row[column] ?? '')].length)),
  )
  const line = (row: string[]) =>
    `| ${row.map((cell, column) => cell.padEnd(widths?.[column] ?? 0)).join(' | ')} |`
  const [header, ...body] = rows
  const rule = `|${widths?.map((width) => '-'.repeat(width + 2)).join('|')}|`
  return [line(header ?? []), rule, ...body.map(line)].join('\n')
}

/** The comparison table and the figures marked as more than 25 % worse. */
export function compareWithBaseline(
  metrics: BaselineMetric[],
  baseline: Baseline | undefined,
): { table: string; marked: BaselineMetric[] } {
  const key = (metric: BaselineMetric) => `${metric.benchmark}\n${metric.name}`
  const before = new Map(baseline?.metrics.map((metric) => [key(metric), metric]))
  const marked: BaselineMetric[] = []
  const rows = [
    ['benchmark', 'figure', 'better', 'n now (baseline)', 'baseline', 'now', 'ratio', ''],
  ]
  for (const metric of metrics) {
    const previous = before.get(key(metric))
    before.delete(key(metric))
    const basis = previous && previous.basis !== metric.basis ? ` (${previous.basis})` : ''
    const row = [metric.benchmark, metric.name, metric.better, `${metric.basis}${basis}`]
    if (!previous) {
      rows.push([...row, '—', formatValue(metric.value, metric.unit), '—', 'no baseline'])
      continue
    }
    const factor = worseFactor(metric, previous.value)
    const worse = !Number.isFinite(factor) || factor > worseThreshold
    if (worse) marked.push(metric)
    rows.push([
      ...row,
      formatValue(previous.value, previous.unit),
      formatValue(metric.value, metric.unit),
      `${(metric.value / previous.value).toFixed(2)}`,
      worse
        ? `✗ ${Number.isFinite(factor) ? `${Math.round((factor - 1) * 100)} % worse` : 'no figure'}`
        : '',
    ])
  }
  const benchmarksRun = new Set(metrics.map((metric) => metric.benchmark))
  for (const missing of before.values()) {
    if (!benchmarksRun.has(missing.benchmark)) continue
    rows.push([
      missing.benchmark,
      missing.name,
      missing.better,
      `— (${missing.basis})`,
      formatValue(missing.value, missing.unit),
      '—',
      '—',
      'not measured',
    ])
  }
  return { table: renderTable(rows), marked }
}
