/** TEST HELPER: check reports, and the checks calls behind a stubbed fetch. */
import type {
  CheckPart,
  CheckProblem,
  CheckReport,
  CheckSettingsResponse,
} from '@sprout/protocol/api/checks.ts'
import { vi } from 'vitest'

export function sampleProblem(overrides: Partial<CheckProblem> = {}): CheckProblem {
  return {
    file: 'src/App.tsx',
    line: 12,
    column: 5,
    message: "Type 'number' is not assignable to type 'string'.",
    text: "src/App.tsx(12,5): error TS2322: Type 'number' is not assignable to type 'string'.\n  The expected type comes from property 'title'.",
    ...overrides,
  }
}

export function samplePart(name: CheckPart['name'], overrides: Partial<CheckPart> = {}): CheckPart {
  const problems = overrides.problems ?? []
  return {
    name,
    status: problems.length > 0 ? 'failed' : 'passed',
    problems,
    problemCount: problems.length,
    durationMs: 1200,
    note: null,
    ...overrides,
  }
}

export function sampleReport(overrides: Partial<CheckReport> = {}): CheckReport {
  return {
    id: 'check-1',
    state: 'passed',
    trigger: 'run',
    parts: ['types', 'build', 'health', 'errors', 'acceptance'].map((name) =>
      samplePart(name as CheckPart['name']),
    ),
    startedAt: '2026-11-26T12:00:00.000Z',
    finishedAt: '2026-11-26T12:00:04.000Z',
    ...overrides,
  }
}

export function failedReport(): CheckReport {
  return sampleReport({
    state: 'failed',
    parts: [
      samplePart('types', {
        problems: [
          sampleProblem(),
          sampleProblem({ line: 20, column: 3, message: "Cannot find name 'count'." }),
        ],
      }),
      samplePart('build'),
      samplePart('health'),
      samplePart('errors'),
      samplePart('acceptance'),
    ],
  })
}

type FakeChecksOptions = {
  latest?: CheckReport | null
  /** The stored check while a held Check now runs (it stores each part as it goes). */
  latestWhileChecking?: CheckReport
  /** Check now's answer: a report, or a refusal; `hold` keeps it pending until released. */
  checkNow?: CheckReport | { status: number; error: string }
  settings?: CheckSettingsResponse
}

const json = (status: number, value: unknown) =>
  new Response(JSON.stringify(value), { status, headers: { 'Content-Type': 'application/json' } })

/** The checks routes behind a stubbed fetch; `release` answers a held Check now. */
export function fakeChecks(options: FakeChecksOptions = {}) {
  const calls: { method: string; path: string; body?: unknown }[] = []
  let settings = options.settings ?? { autoRepair: true, installationAllows: true }
  let release: () => void = () => {}
  let checking = false
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET'
    const body = init.body ? JSON.parse(String(init.body)) : undefined
    const path = new URL(url, 'http://localhost').pathname
    calls.push({ method, path, body })
    if (path.endsWith('/checks/latest')) {
      const check = (checking && options.latestWhileChecking) || (options.latest ?? null)
      return json(200, { check: check && { ...check, runId: 'run-1' } })
    }
    if (path.endsWith('/checks') && method === 'POST') {
      checking = true
      await held
      checking = false
      const answer = options.checkNow ?? sampleReport({ id: 'check-manual', trigger: 'manual' })
      return 'status' in answer ? json(answer.status, { error: answer.error }) : json(200, answer)
    }
    if (path.endsWith('/check-settings')) {
      if (method === 'PUT') settings = { ...settings, autoRepair: Boolean(body?.autoRepair) }
      return json(200, settings)
    }
    return json(404, { error: `Not faked: ${method} ${path}` })
  })
  return { calls, release: () => release() }
}
