// Idle dev servers (docs/architecture/devbox.md "Idle dev servers"): N apps left idle under a short
// DEVBOX_IDLE_MINUTES, then the memory of Sprout's whole process tree and the time to serve an idle
// app's page through the preview proxy.
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { apiCaller } from './lib/api-caller.ts'
import { get as getThrough } from './lib/product-server.ts'
import { startServerProcess } from './lib/server-process.ts'
import { milliseconds, p50AndP95, quantile } from './lib/stats.ts'

const port = 3904
const applicationsCount = Number(process.env.BENCH_APPS ?? 100)
const resumes = Number(process.env.BENCH_RESUMES ?? 20)
const poolTarget = 2
/** 6 s, so the bench does not wait ten minutes; the sweep then runs every 1.5 s. */
const idleMinutes = 0.1

const call = apiCaller(port)

/** GET on 127.0.0.1 with the preview's Host header (*.localhost may not resolve here). */
const get = (host: string, pathname: string, headers: Record<string, string> = {}) =>
  getThrough(port, host, pathname, headers)

async function waitUntil(check: () => Promise<boolean> | boolean, what: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

type ProcessMemory = {
  pid: number
  parent: number
  command: string
  rssKiB: number
  pssKiB: number
}

/** The process and all its descendants, with VmRSS and PSS (smaps_rollup; shared pages split). */
function processTree(rootPid: number): ProcessMemory[] {
  const children = new Map<number, number[]>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      children.set(parent, [...(children.get(parent) ?? []), Number(name)])
    } catch {}
  }
  const found: ProcessMemory[] = []
  const queue = [{ pid: rootPid, parent: 0 }]
  while (queue.length > 0) {
    const { pid, parent } = queue.shift() as { pid: number; parent: number }
    queue.push(...(children.get(pid) ?? []).map((child) => ({ pid: child, parent: pid })))
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8')
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
      found.push({
        pid,
        parent,
        command,
        rssKiB: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0),
        pssKiB: Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0),
      })
    } catch {}
  }
  return found
}

const mib = (kib: number) => `${Math.round(kib / 1024)} MiB`
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0)

function memoryFigures(serverPid: number, label: string) {
  const tree = processTree(serverPid)
  const server = tree.find((entry) => entry.pid === serverPid)
  const devServers = tree.filter(
    (entry) => /\bvite\b/.test(entry.command) && entry.command.startsWith('node'),
  )
  const bridges = tree.filter(
    (entry) =>
      entry.command.includes('box-bridge.mjs') && entry.command.startsWith(process.execPath),
  )
  const parentOf = (entry: ProcessMemory, field: 'rssKiB' | 'pssKiB') =>
    tree.find((candidate) => candidate.pid === entry.parent)?.[field] ?? 0
  return {
    [`${label}: processes in Sprout's tree`]: `${tree.length} (${devServers.length} dev servers, ${bridges.length} bridges)`,
    [`${label}: total RSS (sum of VmRSS)`]: mib(sum(tree.map((entry) => entry.rssKiB))),
    [`${label}: total PSS (smaps_rollup)`]: mib(sum(tree.map((entry) => entry.pssKiB))),
    [`${label}: Sprout's own process RSS / PSS`]: `${mib(server?.rssKiB ?? 0)} / ${mib(server?.pssKiB ?? 0)}`,
    [`${label}: one network bridge (bubblewrap + node), RSS / PSS (median)`]: bridges.length
      ? `${mib(
          quantile(
            bridges.map((entry) => entry.rssKiB + parentOf(entry, 'rssKiB')),
            0.5,
          ),
        )} / ${mib(
          quantile(
            bridges.map((entry) => entry.pssKiB + parentOf(entry, 'pssKiB')),
            0.5,
          ),
        )}`
      : '—',
    [`${label}: one running dev server, RSS (median)`]: mib(
      quantile(
        devServers.map((entry) => entry.rssKiB),
        0.5,
      ) || 0,
    ),
  }
}

export async function benchIdleDevServers(): Promise<Record<string, string>> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-idle-'))
  const server = await startServerProcess({
    entry: 'scripts/start.ts',
    port,
    environment: {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SPROUT_SKIP_BUILD: '1',
      DEVBOX_POOL_TARGET: String(poolTarget),
      DEVBOX_IDLE_MINUTES: String(idleMinutes),
      DEVBOX_CACHE_DIR: path.join(os.tmpdir(), 'sprout-devbox-test-cache'),
    },
  })
  const serverPid = server.child.pid ?? 0
  try {
    const signUp = await call('/api/auth/sign-up/email', {
      method: 'POST',
      body: JSON.stringify({
        email: 'idle@example.com',
        password: 'correct-horse-battery',
        name: 'i',
      }),
    })
    const token = signUp.headers.get('set-auth-token') ?? ''
    const created: { id: string; host: string; previewUrl: string }[] = []
    const creationStarted = performance.now()
    for (let index = 0; index < applicationsCount; index++) {
      const response = await call('/api/applications', {
        method: 'POST',
        token,
        body: JSON.stringify({ initial_prompt: `app ${index}`, model: 'demo' }),
      })
      const { id } = (await response.json()) as { id: string }
      await waitUntil(
        async () => {
          const ready = await call(`/api/applications/${id}/editor-ready`, { token })
          return ((await ready.json()) as { ready?: boolean }).ready === true
        },
        `app ${index} to be ready`,
        120_000,
      )
      const details = await call(`/api/applications/${id}`, { token })
      const { preview_url: previewUrl } = (await details.json()) as { preview_url: string }
      created.push({ id, previewUrl, host: new URL(previewUrl).host })
    }
    const creationMs = performance.now() - creationStarted

    // Idle: only the pool's ready boxes keep a dev server.
    const countDevServers = () =>
      processTree(serverPid).filter(
        (entry) => /\bvite\b/.test(entry.command) && entry.command.startsWith('node'),
      ).length
    await waitUntil(() => countDevServers() <= poolTarget, 'the dev servers to idle', 120_000)
    await new Promise((resolve) => setTimeout(resolve, 3000))
    const idle = memoryFigures(serverPid, `${applicationsCount} apps idle`)

    const times: number[] = []
    let startingPages = 0
    for (const application of created.slice(0, resumes)) {
      const devboxToken = await call('/api/org/devbox-token', {
        method: 'POST',
        token,
        body: JSON.stringify({ devbox_url: application.previewUrl }),
      })
      const { token: handOff } = (await devboxToken.json()) as { token: string }
      const callback = await get(
        application.host,
        `/__sprout/auth/callback?token=${encodeURIComponent(handOff)}&return=%2F`,
      )
      const cookie = callback.setCookie[0]?.split(';')[0] ?? ''
      const started = performance.now()
      let page = await get(application.host, '/', { cookie, accept: 'text/html' })
      // What a browser does with the self-refreshing 'Starting preview…' page, without its 1 s pause.
      while (page.status === 503) {
        startingPages += 1
        page = await get(application.host, '/', { cookie, accept: 'text/html' })
      }
      if (page.status !== 200 || !page.body.includes('<div id="root">')) {
        throw new Error(`the preview answered ${page.status}: ${page.body.slice(0, 200)}`)
      }
      times.push(performance.now() - started)
    }
    const resumed = memoryFigures(serverPid, `after ${resumes} resumes`)

    return {
      [`create ${applicationsCount} apps through the API, each to editor-ready`]:
        milliseconds(creationMs),
      ...idle,
      [`resume of an idle dev server → preview page served, p50 / p95 (n = ${times.length})`]: `${p50AndP95(times)} (max ${milliseconds(Math.max(...times))}; ${startingPages} 'Starting preview…' pages)`,
      ...resumed,
    }
  } finally {
    await server.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}
