// Authenticated GET /api/organizations at 50 connections on PGlite and PostgreSQL, against a
// bare node:http handler measured in the same rounds.
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { removeWithMounts } from '../packages/devbox/src/drivers/local/sandbox/box-disk.ts'
import { createBenchDatabase } from './lib/bench-database.ts'
import { type LoadResult, load } from './lib/load.ts'
import { type BenchOptions, type BenchResult, fullRun, type Metric, metric } from './lib/metrics.ts'
import { processCpuMs } from './lib/process-cpu.ts'
import { type ServerProcess, startServerProcess, startSproutProcess } from './lib/server-process.ts'
import { quantile } from './lib/stats.ts'

const connections = 50
const fullSeconds = Number(process.env.BENCH_SECONDS ?? 10)
const quickSeconds = 6
/** Rounds per server: each server's time is cut into these, in an order rotated every round. */
const rounds = 6
/**
 * The servers' dev-box pools (BENCH_POOL_TARGET, default 0): the API measured here never touches
 * them, full pools measured no different, and filling two of them took minutes of the run.
 */
const poolTarget = process.env.BENCH_POOL_TARGET ?? '0'

async function signUp(base: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base.replace('127.0.0.1', 'localhost') },
    body: JSON.stringify({
      email: 'bench@example.com',
      password: 'correct-horse-battery',
      name: 'b',
    }),
  })
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`)
  return response.headers.get('set-auth-token') ?? ''
}

type PoolStats = {
  global: { provisioning: number }
  packs: Record<string, { ready: number; target: number }>
}

/**
 * A fresh server fills its dev-box pool first (template copies, dev servers starting): that is
 * start-up work, not the API's, so the measurement waits for it (the bench's user is listed in ADMIN_EMAILS).
 */
async function waitForFullPool(base: string, token: string) {
  for (let attempt = 0; attempt < 600; attempt++) {
    const response = await fetch(`${base}/api/admin/pool/stats`, {
      headers: { authorization: `Bearer ${token}` },
    })
    const stats = (await response.json()) as PoolStats
    const full = Object.values(stats.packs).every((pack) => pack.ready >= pack.target)
    if (full && stats.global.provisioning === 0) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error('The dev-box pool did not fill within 2 minutes')
}

type Target = {
  label: string
  url: string
  headers?: Record<string, string>
  server: ServerProcess
  results: LoadResult[]
  /** The server process's CPU over the rounds, and the requests it answered in them. */
  cpuMs: number
  requests: number
}

async function startSprout(
  label: string,
  environment: Record<string, string>,
  port: number,
): Promise<Target> {
  const server = await startSproutProcess(port, {
    ...environment,
    DEVBOX_POOL_TARGET: poolTarget,
    // The bench's user reads the pool's stats, an admin call (docs/product/auth.md "The first admin").
    ADMIN_EMAILS: 'bench@example.com',
  })
  const base = `http://127.0.0.1:${port}`
  let token: string
  try {
    token = await signUp(base)
    await waitForFullPool(base, token)
  } catch (error) {
    await server.stop()
    throw error
  }
  return {
    label,
    url: `${base}/api/organizations?is_personal=true`,
    headers: { authorization: `Bearer ${token}` },
    server,
    results: [],
    cpuMs: 0,
    requests: 0,
  }
}

/**
 * All servers up at once, measured in rotating rounds after a warm-up, so a load spike hits all
 * alike. CPU per request is read too: the throughput share grows with machine load, the CPU share
 * far less (docs/performance.md "API and proxies (second pass)").
 */
async function measureInRounds(targets: Target[], secondsPerServer: number) {
  const roundSeconds = secondsPerServer / rounds
  for (const target of targets) {
    await load({ url: target.url, headers: target.headers, connections, seconds: 2 })
  }
  for (let round = 0; round < rounds; round++) {
    for (let index = 0; index < targets.length; index++) {
      const target = targets[(round + index) % targets.length] as Target
      const pid = target.server.child.pid ?? 0
      const cpuBefore = processCpuMs(pid)
      const result = await load({
        url: target.url,
        headers: target.headers,
        connections,
        seconds: roundSeconds,
      })
      target.cpuMs += processCpuMs(pid) - cpuBefore
      target.requests += result.requestsPerSecond * roundSeconds
      target.results.push(result)
    }
  }
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0)

export async function benchOrganizationsThroughput(
  options: BenchOptions = fullRun,
): Promise<BenchResult> {
  const seconds = options.quick ? quickSeconds : fullSeconds
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-orgs-'))
  const targets: Target[] = []
  const postgres = await createBenchDatabase()
  try {
    targets.push({
      label: 'bare node:http',
      url: 'http://127.0.0.1:3910/x',
      server: await startServerProcess({
        entry: 'bench/lib/bare-server.ts',
        environment: { PORT: '3910' },
        port: 3910,
      }),
      results: [],
      cpuMs: 0,
      requests: 0,
    })
    targets.push(await startSprout('PGlite', { DATA_DIR: path.join(dataDir, 'pglite') }, 3911))
    if (postgres) {
      targets.push(
        await startSprout(
          'PostgreSQL',
          { DATA_DIR: path.join(dataDir, 'postgres'), DATABASE_URL: postgres.url },
          3912,
        ),
      )
    }
    await measureInRounds(targets, seconds)
  } finally {
    for (const target of targets) await target.server.stop()
    await postgres?.drop().catch(() => undefined)
    await removeWithMounts(dataDir)
  }
  return report(targets, seconds)
}

function report(targets: Target[], seconds: number): BenchResult {
  const [bare, ...sprouts] = targets as [Target, ...Target[]]
  const describe = (target: Target) => {
    const requestsPerSecond = sum(target.results.map((result) => result.requestsPerSecond))
    const p50 = quantile(
      target.results.map((result) => result.p50Ms),
      0.5,
    )
    const p99 = quantile(
      target.results.map((result) => result.p99Ms),
      0.5,
    )
    const errors = sum(target.results.map((result) => result.errors))
    const cpuPerRequestUs = (1000 * target.cpuMs) / target.requests
    return { requestsPerSecond, p50, p99, errors, cpuPerRequestUs }
  }
  const bareFigures = describe(bare)
  const perRound = (target: Target) =>
    target.results.map((result) => Math.round(result.requestsPerSecond)).join(', ')
  const figures: Record<string, string> = {
    'bare node:http': `${Math.round(bareFigures.requestsPerSecond / rounds)} req/s, p99 ${bareFigures.p99} ms (median of ${rounds} rounds), CPU ${bareFigures.cpuPerRequestUs.toFixed(1)} µs per request; per round ${perRound(bare)}`,
  }
  const metrics: Metric[] = []
  for (const target of sprouts) {
    const figure = describe(target)
    const ratio = (100 * figure.requestsPerSecond) / bareFigures.requestsPerSecond
    // The share by CPU: bare node:http's CPU per request over Sprout's. The load on a shared
    // machine scales it far less than requests per second (docs/performance.md "API and
    // proxies (second pass)").
    const cpuShare = (100 * bareFigures.cpuPerRequestUs) / figure.cpuPerRequestUs
    figures[`GET /api/organizations (${target.label})`] =
      `${Math.round(figure.requestsPerSecond / rounds)} req/s (${ratio.toFixed(0)} % of bare), p50 ${figure.p50} ms, p99 ${figure.p99} ms (medians of ${rounds} rounds), errors ${figure.errors}; CPU ${figure.cpuPerRequestUs.toFixed(1)} µs per request (bare's is ${cpuShare.toFixed(0)} % of it); per round ${perRound(target)}`
    const basis = `${seconds} s each in ${rounds} interleaved rounds at ${connections} connections, pool ${poolTarget}`
    metrics.push(
      metric(
        `authenticated GET /api/organizations, share of bare node:http (${target.label})`,
        ratio,
        '%',
        'higher',
        basis,
      ),
      metric(
        `authenticated GET /api/organizations, share of bare node:http by CPU per request (${target.label})`,
        cpuShare,
        '%',
        'higher',
        basis,
      ),
      metric(
        `authenticated GET /api/organizations, p99 (${target.label})`,
        figure.p99,
        'ms',
        'lower',
        `median of ${rounds} rounds' p99`,
      ),
    )
  }
  return { figures, metrics }
}
