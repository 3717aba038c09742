// The agent's browser tool (docs/product/tool-calls.md "browser") against a real fullstack box:
// the first call (Chromium started in the box, the app's modules loaded cold) apart, then p50/p95
// of calls that open '/' alone and that fill and click, and where a call's time goes.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { boxBrowser } from '../packages/devbox/src/box-browser/box-browser.ts'
import type {
  BrowserAction,
  BrowserPage,
} from '../packages/devbox/src/box-browser/browser-types.ts'
import { createTestDriver } from '../packages/devbox/src/testing/devbox-support.ts'
import { milliseconds, p50AndP95 } from './lib/stats.ts'

const calls = 20

const plant = (index: number): BrowserAction[] => [
  { action: 'fill', role: 'textbox', name: 'Note', value: `bench note ${index}` },
  { action: 'click', role: 'button', name: 'Plant it' },
]

export async function benchBrowserTool(): Promise<Record<string, string>> {
  const rootDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-browser-'))
  const driver = createTestDriver({ rootDir })
  try {
    const box = await driver.provision('fullstack')
    const browser = boxBrowser(box)
    const timed = async (actions: BrowserAction[]) => {
      const started = performance.now()
      const page = await browser.open({ path: '/', actions })
      if (page.actionError) throw new Error(page.actionError)
      return { page, ms: performance.now() - started }
    }
    const first = await timed([])
    const opens: number[] = []
    const acts: number[] = []
    const pages: BrowserPage[] = []
    for (let index = 0; index < calls; index++) {
      const open = await timed([])
      opens.push(open.ms)
      pages.push(open.page)
      acts.push((await timed(plant(index))).ms)
    }
    browser.close()
    const stage = (name: string) => pages.map((page) => page.timings?.[name] ?? Number.NaN)
    const shotSizes = pages.map((page) => page.screenshot?.bytes.length ?? 0)
    return {
      'first call (Chromium started in the box, cold cache)': milliseconds(first.ms),
      [`open / (${calls} calls): p50 / p95`]: p50AndP95(opens),
      [`open /, fill a textbox and click a button (${calls} calls): p50 / p95`]: p50AndP95(acts),
      'inside the host, open /: page loaded / snapshot taken / screenshot taken, p50 / p95': [
        p50AndP95(stage('loaded')),
        p50AndP95(stage('snapshot')),
        p50AndP95(stage('screenshot')),
      ].join(' · '),
      'screenshot (1280×800 PNG): largest': `${Math.max(...shotSizes)} bytes`,
    }
  } finally {
    await driver.shutdown()
    await rm(rootDir, { recursive: true, force: true })
  }
}
