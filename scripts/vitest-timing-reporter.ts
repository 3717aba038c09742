// A Vitest reporter for `npm test`'s closing table (scripts/test-timing.ts): each suite's time,
// and how much of it was set-up — importing the module and its hooks (a harness's start, a box's
// provisioning in `beforeAll`) — rather than its tests.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Reporter, TestModule } from 'vitest/node'

export type SuiteTiming = { name: string; project: string; ms: number; setupMs: number }

export default class TimingReporter implements Reporter {
  private readonly suites: SuiteTiming[] = []

  onTestModuleEnd(testModule: TestModule) {
    const diagnostic = testModule.diagnostic()
    let testsMs = 0
    for (const test of testModule.children.allTests()) testsMs += test.diagnostic()?.duration ?? 0
    const importMs =
      diagnostic.environmentSetupDuration +
      diagnostic.prepareDuration +
      diagnostic.setupDuration +
      diagnostic.collectDuration
    this.suites.push({
      name: path.relative(process.cwd(), testModule.moduleId),
      project: testModule.project.name,
      ms: importMs + diagnostic.duration,
      setupMs: importMs + Math.max(0, diagnostic.duration - testsMs),
    })
  }

  onTestRunEnd() {
    const file = process.env.VITEST_TIMING_OUTPUT
    if (file) writeFileSync(file, JSON.stringify(this.suites))
  }
}
