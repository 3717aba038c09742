/** TEST HELPER: the versions calls behind a stubbed fetch, with the versions kept in memory. */
import type { DiffFile, Version } from '@sprout/protocol/api/versions.ts'
import { vi } from 'vitest'

export function sampleVersion(number: number, overrides: Partial<Version> = {}): Version {
  return {
    id: `version-${number}`,
    number,
    kind: 'run',
    commitId: `commit${number}`.padEnd(40, '0'),
    title: `Change number ${number}`,
    runId: `run-${number}`,
    conversationId: 'conversation-1',
    restoredNumber: null,
    author: { id: 'user-1', name: 'Maker' },
    createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    files: [{ path: 'src/App.tsx', added: 3, removed: 1, status: 'modified' }],
    hasDataSnapshot: false,
    ...overrides,
  }
}

export function sampleDiffFile(overrides: Partial<DiffFile> = {}): DiffFile {
  return {
    path: 'src/App.tsx',
    added: 1,
    removed: 1,
    status: 'modified',
    binary: false,
    patch: '@@ -1,2 +1,2 @@\n-const title = "Old"\n+const title = "New"\n export default title\n',
    lines: 4,
    truncated: false,
    ...overrides,
  }
}

type FakeOptions = {
  pageSize?: number
  diffFiles?: (version: Version) => DiffFile[]
  /** The restore call's refusal, e.g. a run is going. */
  restoreRefusal?: { status: number; error: string }
  /** The restore answers only once released (it takes 10–20 s in a dev box). */
  holdRestore?: boolean
}

/** `versions` newest first, as the server lists them. */
export function fakeVersions(versions: Version[], options: FakeOptions = {}) {
  const calls: { method: string; url: string; body?: unknown }[] = []
  const pageSize = options.pageSize ?? 50
  let releaseRestore: () => void = () => {}
  const restoreHeld = new Promise<void>((resolve) => {
    releaseRestore = resolve
  })
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET'
    const body = init.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ method, url, body })
    const json = (status: number, value: unknown) =>
      new Response(JSON.stringify(value), {
        status,
        headers: { 'Content-Type': 'application/json' },
      })
    const parsed = new URL(url, 'http://localhost')
    const path = parsed.pathname
    if (/\/versions$/.test(path) && method === 'GET') {
      const start = Number(parsed.searchParams.get('cursor') ?? 0)
      const end = start + pageSize
      return json(200, {
        versions: versions.slice(start, end),
        nextCursor: end < versions.length ? String(end) : null,
        total: versions.length,
      })
    }
    const diff = /\/versions\/([^/]+)\/diff$/.exec(path)
    if (diff) {
      const version = versions.find((candidate) => candidate.id === diff[1])
      if (!version) return json(404, { error: 'Version not found' })
      return json(200, { version, files: options.diffFiles?.(version) ?? [sampleDiffFile()] })
    }
    const restore = /\/versions\/([^/]+)\/restore$/.exec(path)
    if (restore && method === 'POST') {
      if (options.holdRestore) await restoreHeld
      if (options.restoreRefusal) {
        return json(options.restoreRefusal.status, { error: options.restoreRefusal.error })
      }
      const restored = versions.find((candidate) => candidate.id === restore[1])
      if (!restored) return json(404, { error: 'Version not found' })
      const number = (versions[0]?.number ?? 0) + 1
      const version = sampleVersion(number, {
        kind: 'restore',
        title: `Restored version ${restored.number}`,
        restoredNumber: restored.number,
        runId: null,
        conversationId: null,
      })
      versions.unshift(version)
      return json(200, { version })
    }
    return json(404, { error: 'Not found' })
  })
  return { calls, releaseRestore: () => releaseRestore() }
}
