// The whole product in this process for benchmarks: a server on a fresh DATA_DIR, sign-up, an
// application created through the API, the preview hand-off's cookie, requests by host name.
import { mkdtemp } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { parseConfig } from '../../apps/server/src/config/config.ts'
import { startServer } from '../../apps/server/src/start-server.ts'
import { readRawResponse } from '../../apps/server/src/testing/raw-request.ts'
import { targetConnection } from '../../packages/devbox/src/dev-server-request.ts'
import type { DevServerTarget } from '../../packages/devbox/src/devbox-driver.ts'
import { findFreePort } from '../../packages/devbox/src/drivers/local/processes/free-port.ts'
import { removeWithMounts } from '../../packages/devbox/src/drivers/local/sandbox/box-disk.ts'
import { apiCaller } from './api-caller.ts'
import { quantile } from './stats.ts'

const agent = new http.Agent({ keepAlive: true })
const socketAgent = new http.Agent({ keepAlive: true })

export function get(
  port: number | DevServerTarget,
  host: string,
  pathname: string,
  headers: Record<string, string> = {},
) {
  return getOnce(port, host, pathname, headers).catch((error: Error & { reused?: boolean }) => {
    // As a browser does: a read that met a kept-alive connection the other side had just closed
    // (HAProxy closes idle ones after 10 s) is sent again, once, on a new one.
    if (!error.reused) throw error
    return getOnce(port, host, pathname, headers)
  })
}

function getOnce(
  port: number | DevServerTarget,
  host: string,
  pathname: string,
  headers: Record<string, string>,
) {
  const connection =
    typeof port === 'number' ? { hostname: '127.0.0.1', port } : targetConnection(port)
  return new Promise<{ status: number; body: string; setCookie: string[] }>((resolve, reject) => {
    const request = http.request(
      {
        ...connection,
        path: pathname,
        agent: typeof port === 'number' ? agent : socketAgent,
        headers: { ...headers, host },
      },
      (response) =>
        resolve(
          readRawResponse(response).then(({ status, body }) => ({
            status,
            body,
            setCookie: response.headers['set-cookie'] ?? [],
          })),
        ),
    )
    request.on('error', (error: Error & { reused?: boolean }) => {
      error.reused = request.reusedSocket
      reject(error)
    })
    request.end()
  })
}

export async function startBenchServer(dataDir: string, poolTarget: number) {
  const port = await findFreePort()
  const config = parseConfig({
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://localhost:${port}`,
    DEVBOX_POOL_TARGET: String(poolTarget),
    DEVBOX_CACHE_DIR: path.join(os.tmpdir(), 'sprout-devbox-test-cache'),
    AUTH_RATE_LIMIT: '1000/60',
  })
  const server = await startServer(config, { serveWeb: false })
  return { server, port, call: apiCaller(port, config.publicUrl) }
}

export type BenchServer = Awaited<ReturnType<typeof startBenchServer>>

/** A server on a fresh `sprout-bench-<name>-` data folder for `run`; stopped and removed after. */
export async function withBenchServer<Result>(
  name: string,
  poolTarget: number,
  run: (bench: BenchServer) => Promise<Result>,
): Promise<Result> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `sprout-bench-${name}-`))
  const bench = await startBenchServer(dataDir, poolTarget)
  try {
    return await run(bench)
  } finally {
    await bench.server.stop()
    await removeWithMounts(dataDir)
  }
}

export async function signUp(bench: BenchServer, email: string) {
  const response = await bench.call('/api/auth/sign-up/email', {
    method: 'POST',
    body: JSON.stringify({ email, password: 'correct-horse-battery', name: 'bench' }),
  })
  return response.headers.get('set-auth-token') ?? ''
}

export async function createAndWait(bench: BenchServer, token: string) {
  const started = performance.now()
  const created = await bench.call('/api/applications', {
    method: 'POST',
    token,
    body: JSON.stringify({ initial_prompt: 'benchmark app', model: 'demo' }),
  })
  const { id } = (await created.json()) as { id: string }
  for (;;) {
    const ready = await bench.call(`/api/applications/${id}/editor-ready`, { token })
    const body = (await ready.json()) as { ready: boolean; error?: string }
    if (body.error) throw new Error(body.error)
    if (body.ready) break
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  const readyMs = performance.now() - started
  const details = (await (await bench.call(`/api/applications/${id}`, { token })).json()) as {
    preview_url: string
  }
  return {
    id,
    readyMs,
    started,
    previewHost: new URL(details.preview_url).host,
    previewUrl: details.preview_url,
  }
}

export async function previewCookie(
  bench: BenchServer,
  token: string,
  previewUrl: string,
  host: string,
) {
  const issued = await bench.call('/api/org/devbox-token', {
    method: 'POST',
    token,
    body: JSON.stringify({ devbox_url: previewUrl }),
  })
  const { token: handOff } = (await issued.json()) as { token: string }
  const exchanged = await get(bench.port, host, `/__sprout/auth/callback?token=${handOff}&return=/`)
  return exchanged.setCookie[0]?.split(';')[0] ?? ''
}

/** Waits until the pool has a ready box of the pack type new apps use. */
export async function waitForPool(bench: BenchServer) {
  for (let attempt = 0; attempt < 600; attempt++) {
    const stats = bench.server.devboxes.pool.stats()
    if ((stats.packs.fullstack?.ready ?? 0) >= 1) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the pool never filled')
}

/** Provisioning with an empty pool (the npm cache warm): the median of three creations, in ms. */
export async function medianColdProvisioning(): Promise<number> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-cold-'))
  const cold = await startBenchServer(dataDir, 0)
  try {
    const token = await signUp(cold, 'cold@example.com')
    const times: number[] = []
    for (let index = 0; index < 3; index++) times.push((await createAndWait(cold, token)).readyMs)
    return quantile(times, 0.5)
  } finally {
    await cold.server.stop()
    await removeWithMounts(dataDir)
  }
}
