// Authenticated GET /api/organizations at 50 connections on PGlite and PostgreSQL, against a
// bare node:http handler measured in the same run.
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { removeWithMounts } from '../packages/devbox/src/drivers/local/box-disk.ts'
import { load } from './lib/load.ts'
import { type BenchOptions, type BenchResult, fullRun, type Metric, metric } from './lib/metrics.ts'
import { startServerProcess } from './lib/server-process.ts'

const connections = 50
const fullSeconds = Number(process.env.BENCH_SECONDS ?? 10)
const quickSeconds = 5

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
 * start-up work, not the API's, so the measurement waits for it (the first user is an admin).
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

async function measureSprout(
  label: string,
  environment: Record<string, string>,
  port: number,
  seconds: number,
) {
  const server = await startServerProcess({
    entry: 'apps/server/src/main.ts',
    environment: {
      ...environment,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
    },
    port,
  })
  try {
    const base = `http://127.0.0.1:${port}`
    const token = await signUp(base)
    await waitForFullPool(base, token)
    const url = `${base}/api/organizations?is_personal=true`
    await load({ url, connections, seconds: 2, headers: { authorization: `Bearer ${token}` } })
    return {
      label,
      ...(await load({ url, connections, seconds, headers: { authorization: `Bearer ${token}` } })),
    }
  } finally {
    await server.stop()
  }
}

export async function benchOrganizationsThroughput(
  options: BenchOptions = fullRun,
): Promise<BenchResult> {
  const seconds = options.quick ? quickSeconds : fullSeconds
  const bare = await startServerProcess({
    entry: 'bench/lib/bare-server.ts',
    environment: { PORT: '3910' },
    port: 3910,
  })
  const bareResult = await (async () => {
    try {
      await load({ url: 'http://127.0.0.1:3910/x', connections, seconds: 2 })
      return await load({ url: 'http://127.0.0.1:3910/x', connections, seconds })
    } finally {
      await bare.stop()
    }
  })()

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-orgs-'))
  const results = []
  try {
    results.push(await measureSprout('PGlite', { DATA_DIR: dataDir }, 3911, seconds))
    const postgresBase =
      process.env.BENCH_DATABASE_URL ??
      process.env.TEST_DATABASE_URL ??
      'postgres://postgres@127.0.0.1:5432/test'
    const admin = new pg.Client({ connectionString: postgresBase })
    const database = `sprout_bench_${Date.now()}`
    try {
      await admin.connect()
      await admin.query(`create database ${database}`)
      const url = new URL(postgresBase)
      url.pathname = `/${database}`
      results.push(
        await measureSprout(
          'PostgreSQL',
          { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
          3912,
          seconds,
        ),
      )
      await admin.query(`drop database if exists ${database} with (force)`)
    } catch (error) {
      console.warn(`PostgreSQL not measured: ${(error as Error).message}`)
    } finally {
      await admin.end().catch(() => undefined)
    }
  } finally {
    await removeWithMounts(dataDir)
  }

  const figures: Record<string, string> = {
    'bare node:http': `${Math.round(bareResult.requestsPerSecond)} req/s, p99 ${bareResult.p99Ms} ms`,
  }
  const metrics: Metric[] = []
  for (const result of results) {
    const ratio = (100 * result.requestsPerSecond) / bareResult.requestsPerSecond
    figures[`GET /api/organizations (${result.label})`] =
      `${Math.round(result.requestsPerSecond)} req/s (${ratio.toFixed(0)} % of bare), p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, errors ${result.errors}`
    metrics.push(
      metric(
        `authenticated GET /api/organizations, share of bare node:http (${result.label})`,
        ratio,
        '%',
        'higher',
        `${seconds} s each at ${connections} connections`,
      ),
    )
  }
  return { figures, metrics }
}
