// Error ingest (docs/product/error-monitoring.md "Ingest"): Sentry envelopes from the SDK's own
// serializer posted at 100 connections to a server process, on PGlite and PostgreSQL; how soon an
// accepted event is in the group list; memory under a flood past the rate limit.
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import { browserErrorEvent, sdkEnvelope } from '../apps/server/src/testing/sentry-envelopes.ts'
import { residentMemoryMiB, startSproutProcess } from './lib/server-process.ts'
import { quantile } from './lib/stats.ts'

// Many browsers each sending one envelope: what is in flight at once (the writer batches them).
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100)
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const floodSeconds = Number(process.env.BENCH_FLOOD_SECONDS ?? 60)
const groupsInLoad = 50
const placeholderId = 'e'.repeat(32)

type Target = { base: string; token: string; applicationId: string; dsn: URL }

async function prepare(base: string): Promise<Target> {
  const origin = base.replace('127.0.0.1', 'localhost')
  const signedUp = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({
      email: 'bench@example.com',
      password: 'correct-horse-battery',
      name: 'b',
    }),
  })
  const token = signedUp.headers.get('set-auth-token') ?? ''
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const created = await fetch(`${base}/api/applications`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ initial_prompt: 'A page that fails', model: 'demo' }),
  })
  const { id } = (await created.json()) as { id: string }
  // The new app's dev box starts first: start-up work, not the ingest's.
  for (let attempt = 0; attempt < 600; attempt++) {
    const ready = await fetch(`${base}/api/applications/${id}/editor-ready`, { headers: auth })
    if (((await ready.json()) as { ready: boolean }).ready) break
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const read = await fetch(`${base}/api/applications/${id}`, { headers: auth })
  const { dsn } = (await read.json()) as { dsn: string }
  return { base, token, applicationId: id, dsn: new URL(dsn) }
}

/** The SDK's envelope once; each request gets its own event_id and one of 50 messages. */
function envelopeFactory(dsn: URL) {
  const template = sdkEnvelope(
    dsn.toString(),
    browserErrorEvent('Checkout failed for cart GROUP in step 3', { event_id: placeholderId }),
  )
  let sent = 0
  return () => {
    sent++
    return template
      .replaceAll(placeholderId, randomUUID().replaceAll('-', ''))
      .replace('GROUP', `c${sent % groupsInLoad}x`)
  }
}

const envelopePath = (dsn: URL) => `/api${dsn.pathname}/envelope/?sentry_key=${dsn.username}`

/** Probes during the load: a new error posted, then the list read until it shows it. */
async function probeVisibility(target: Target, until: number): Promise<number[]> {
  const delays: number[] = []
  const headers = { authorization: `Bearer ${target.token}` }
  while (Date.now() < until) {
    // Letters only: digits or hex would be normalised away and every probe would be one group.
    const marker = `Probe ${Array.from({ length: 12 }, () => 'ghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 20)]).join('')}`
    const body = sdkEnvelope(target.dsn.toString(), browserErrorEvent(marker))
    const answered = await fetch(`${target.base}${envelopePath(target.dsn)}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body,
    })
    if (answered.status !== 200) continue
    const acceptedAt = performance.now()
    for (;;) {
      const list = await fetch(
        `${target.base}/api/applications/${target.applicationId}/error-groups?limit=100`,
        { headers },
      )
      const text = await list.text()
      if (text.includes(marker)) break
      if (performance.now() - acceptedAt > 10_000) throw new Error('a probe never became visible')
    }
    delays.push(performance.now() - acceptedAt)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return delays
}

async function measure(label: string, environment: Record<string, string>, port: number) {
  const server = await startSproutProcess(port, {
    ...environment,
    DEVBOX_POOL_TARGET: '0',
    ERRORS_RATE_LIMIT: '1000000000/60',
  })
  try {
    const target = await prepare(`http://127.0.0.1:${port}`)
    const next = envelopeFactory(target.dsn)
    const run = (duration: number) =>
      autocannon({
        url: target.base,
        connections,
        duration,
        requests: [
          {
            method: 'POST',
            path: envelopePath(target.dsn),
            headers: { 'content-type': 'text/plain' },
            setupRequest: (request) => ({ ...request, body: next() }),
          },
        ],
      })
    await run(2)
    const probes =
      process.env.BENCH_PROBES === '0'
        ? Promise.resolve([])
        : probeVisibility(target, Date.now() + seconds * 1000)
    const result = await run(seconds)
    const delays = await probes
    const stats = await fetch(
      `${target.base}/api/applications/${target.applicationId}/error-stats`,
      {
        headers: { authorization: `Bearer ${target.token}` },
      },
    )
    const { total_occurrences: stored } = (await stats.json()) as { total_occurrences: number }
    return {
      label,
      eventsPerSecond: result['2xx'] / seconds,
      p99Ms: result.latency.p99,
      failed: result.errors + result.non2xx,
      answered: result['2xx'],
      stored,
      visibleP95: quantile(delays, 0.95),
      probes: delays.length,
    }
  } finally {
    await server.stop()
  }
}

/** A flood past the default limit (3000/60 per app): 429s, and the server's memory meanwhile. */
async function flood(environment: Record<string, string>, port: number) {
  const server = await startSproutProcess(port, { ...environment, DEVBOX_POOL_TARGET: '0' })
  try {
    const target = await prepare(`http://127.0.0.1:${port}`)
    const next = envelopeFactory(target.dsn)
    const pid = server.child.pid ?? 0
    const samples: number[] = [residentMemoryMiB(pid)]
    const sampler = setInterval(() => samples.push(residentMemoryMiB(pid)), 1000)
    const result = await autocannon({
      url: target.base,
      connections,
      duration: floodSeconds,
      requests: [
        {
          method: 'POST',
          path: envelopePath(target.dsn),
          headers: { 'content-type': 'text/plain' },
          setupRequest: (request) => ({ ...request, body: next() }),
        },
      ],
    })
    clearInterval(sampler)
    const tenth = Math.max(1, Math.floor(samples.length / 10))
    const average = (values: number[]) =>
      values.reduce((sum, value) => sum + value, 0) / values.length
    return {
      requestsPerSecond: result.requests.average,
      accepted: result['2xx'],
      limited: result.non2xx,
      startMiB: samples[0] ?? Number.NaN,
      firstTenthMiB: average(samples.slice(1, 1 + tenth)),
      lastTenthMiB: average(samples.slice(-tenth)),
      peakMiB: Math.max(...samples),
      quarterMiB: [1, 2, 3].map(
        (quarter) => samples[Math.floor((samples.length * quarter) / 4)] ?? 0,
      ),
    }
  } finally {
    await server.stop()
  }
}

export async function benchErrorIngest(): Promise<Record<string, string>> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-errors-'))
  const results = []
  const figures: Record<string, string> = {}
  try {
    results.push(await measure('PGlite', { DATA_DIR: path.join(dataDir, 'pglite') }, 3921))
    const postgresBase = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
    const admin = new pg.Client({ connectionString: postgresBase })
    const database = `sprout_bench_errors_${Date.now()}`
    try {
      await admin.connect()
      await admin.query(`create database ${database}`)
      const url = new URL(postgresBase)
      url.pathname = `/${database}`
      results.push(
        await measure(
          'PostgreSQL',
          { DATA_DIR: path.join(dataDir, 'postgres'), DATABASE_URL: url.toString() },
          3922,
        ),
      )
      await admin.query(`drop database if exists ${database} with (force)`)
    } catch (error) {
      console.warn(`PostgreSQL not measured: ${(error as Error).message}`)
    } finally {
      await admin.end().catch(() => undefined)
    }
    for (const result of results) {
      figures[`${result.label}: sustained ingest, ${connections} connections, ${seconds} s`] =
        `${Math.round(result.eventsPerSecond)} events/s (p99 ${result.p99Ms} ms), ${result.answered} answered 200, ${result.stored} stored (the probes' included), ${result.failed} failed`
      figures[`${result.label}: accepted → visible in the group list, p95`] =
        `${Math.round(result.visibleP95)} ms over ${result.probes} probes`
    }
    const flooded = await flood({ DATA_DIR: path.join(dataDir, 'flood') }, 3923)
    figures[`PGlite: flood past ERRORS_RATE_LIMIT=3000/60, ${floodSeconds} s`] =
      `${Math.round(flooded.requestsPerSecond)} req/s, ${flooded.accepted} accepted, ${flooded.limited} answered 429`
    figures['PGlite: server memory during the flood (RSS)'] =
      `${Math.round(flooded.startMiB)} MiB before, ${Math.round(flooded.firstTenthMiB)} MiB in the first tenth, ${flooded.quarterMiB.map(Math.round).join(' / ')} MiB at 1/4, 1/2, 3/4, ${Math.round(flooded.lastTenthMiB)} MiB in the last tenth, peak ${Math.round(flooded.peakMiB)} MiB`
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
  return figures
}
