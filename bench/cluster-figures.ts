// Issue 30's figures with several instances behind HAProxy (bench/lib/cluster.ts): authenticated
// API requests/s with 1 and 2 instances, a preview module through a non-owner vs its owner, HMR
// through the relay, and kill -9 of a box's owner → its preview answering through another.
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import { openWebSocket } from '../apps/server/src/testing/raw-websocket.ts'
import { startBareProxy } from './lib/bare-proxy.ts'
import { type BenchCluster, startBenchCluster } from './lib/cluster.ts'
import { type ClusterUser, findWorkspace, signUpAndCreate } from './lib/cluster-user.ts'
import { get } from './lib/product-server.ts'
import { milliseconds, p50AndP95, quantile } from './lib/stats.ts'

// Ports of the H4 range (below Linux's ephemeral range): HAProxy on the first, instances after.
const basePort = 29550
const loadSeconds = 8
const moduleRounds = 300
const hmrRounds = 30
const killRounds = 3

async function throughput(cluster: BenchCluster, token: string, figures: Record<string, string>) {
  const [first, second] = cluster.instances
  if (!first || !second) return
  const url = `${cluster.balancer.url.replace('localhost', '127.0.0.1')}/api/organizations?is_personal=true`
  const headers = { authorization: `Bearer ${token}`, origin: cluster.balancer.url }
  const probe = await fetch(url, { headers })
  if (probe.status !== 200) throw new Error(`${url}: ${probe.status} ${await probe.text()}`)
  const problems: string[] = []
  const measure = async (label: string) => {
    const result = await autocannon({ url, connections: 50, duration: loadSeconds, headers })
    if (result.errors + result.non2xx > 0) {
      problems.push(
        `${label}: ${result.non2xx} non-2xx ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors (${result.timeouts} timeouts)`,
      )
    }
    return result.requests.average
  }
  const one: number[] = []
  const two: number[] = []
  // Interleaved, so the machine's noise falls on both.
  for (let round = 0; round < 2; round++) {
    await cluster.balancer.setState(second.name, 'maint')
    one.push(await measure('1 instance'))
    await cluster.balancer.setState(second.name, 'ready')
    await cluster.healthy(second)
    two.push(await measure('2 instances'))
  }
  if (problems.length > 0) figures['… failed requests'] = problems.join('; ')
  const median = (values: number[]) => quantile(values, 0.5)
  figures[
    `authenticated GET /api/organizations through HAProxy, 1 instance (median of 2 × ${loadSeconds} s, 50 connections)`
  ] = `${Math.round(median(one))} req/s`
  figures['… 2 instances'] = `${Math.round(median(two))} req/s`
  figures['… 2 instances / 1 instance'] = `${(median(two) / median(one)).toFixed(2)}×`
}

async function timed(
  port: number,
  user: ClusterUser,
  pathname: string,
  headers: Record<string, string> = {},
) {
  const started = performance.now()
  const response = await get(port, user.previewHost, pathname, { cookie: user.cookie, ...headers })
  // Counted apart, not timed: a relay or a dev server that failed is reported, not averaged in.
  return response.status === 200 ? performance.now() - started : -response.status
}

/** p50 / p95 to a tenth of a millisecond: a module takes a few. */
const fine = (values: number[]) =>
  `${quantile(values, 0.5).toFixed(1)} ms / ${quantile(values, 0.95).toFixed(1)} ms`

async function relayedModule(
  cluster: BenchCluster,
  user: ClusterUser,
  owner: number,
  figures: Record<string, string>,
) {
  const other = cluster.instances.find(({ port }) => port !== owner)?.port ?? 0
  const direct: number[] = []
  const relayed: number[] = []
  // The floor of any second hop in Node, in the same rounds: a bare node:http proxy in front of
  // the owner (bench/lib/bare-proxy.ts).
  const bareProxy = await startBareProxy({ host: '127.0.0.1', port: owner }, { keepHost: true })
  const bare: number[] = []
  // A declared empty body is not tunnelled (decision 042): the relay's long way, for comparison.
  const longWay: number[] = []
  const withBody = { 'content-length': '0' }
  for (let round = 0; round < 20; round++) await timed(other, user, '/src/App.tsx')
  const failed: number[] = []
  const keep = (into: number[], value: number) =>
    value < 0 ? failed.push(-value) : into.push(value)
  for (let round = 0; round < moduleRounds; round++) {
    keep(direct, await timed(owner, user, '/src/App.tsx'))
    keep(relayed, await timed(other, user, '/src/App.tsx'))
    keep(bare, await timed(bareProxy.port, user, '/src/App.tsx'))
    keep(longWay, await timed(other, user, '/src/App.tsx', withBody))
  }
  bareProxy.close()
  if (failed.length > 0) figures['… answers other than 200 (statuses)'] = failed.join(', ')
  const ratio = quantile(relayed, 0.5) / quantile(direct, 0.5)
  figures[`preview /src/App.tsx straight to the owner (p50 / p95, n=${moduleRounds})`] =
    fine(direct)
  figures['… through a non-owner, tunnelled (decision 042)'] = fine(relayed)
  figures['… tunnelled / owner (median)'] = `${ratio.toFixed(2)}×`
  figures['… through a non-owner, relayed the long way (decision 033)'] =
    `${fine(longWay)} (${(quantile(longWay, 0.5) / quantile(direct, 0.5)).toFixed(2)}×)`
  figures['… through a bare node:http proxy in front of the owner'] =
    `${fine(bare)} (${(quantile(bare, 0.5) / quantile(direct, 0.5)).toFixed(2)}×)`
}

async function hmrTimes(port: number, user: ClusterUser, workspace: string) {
  const updates: number[] = []
  let waiting: ((at: number) => void) | undefined
  const socket = await openWebSocket(port, user.previewHost, user.cookie, (text) => {
    if (text.includes('"update"') || text.includes('"full-reload"')) waiting?.(performance.now())
  })
  for (let round = 0; round < hmrRounds; round++) {
    const arrived = new Promise<number>((resolve) => {
      waiting = resolve
    })
    const written = performance.now()
    await writeFile(
      path.join(workspace, 'src/App.tsx'),
      `export function App() {\n  return <h1>Round ${round} ${port}</h1>\n}\n`,
    )
    const at = await Promise.race([
      arrived,
      new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), 5000)),
    ])
    if (!Number.isNaN(at)) updates.push(at - written)
    await new Promise((resolve) => setTimeout(resolve, 150))
  }
  socket.destroy()
  return updates
}

async function relayedHmr(
  cluster: BenchCluster,
  user: ClusterUser,
  owner: number,
  figures: Record<string, string>,
) {
  const other = cluster.instances.find(({ port }) => port !== owner)?.port ?? 0
  const workspace = findWorkspace(cluster.sharedDir)
  const direct = await hmrTimes(owner, user, workspace)
  const relayed = await hmrTimes(other, user, workspace)
  figures[`file written → HMR update, socket on the owner (p50 / p95, n=${direct.length})`] =
    p50AndP95(direct)
  figures[`… socket on a non-owner, relayed (p50 / p95, n=${relayed.length})`] = p50AndP95(relayed)
}

async function killTimes(
  cluster: BenchCluster,
  user: ClusterUser,
  ownerOf: () => Promise<number | undefined>,
  figures: Record<string, string>,
) {
  const times: number[] = []
  for (let round = 0; round < killRounds; round++) {
    const ownerPort = await ownerOf()
    const owner = cluster.instances.find(({ port }) => port === ownerPort)
    if (!owner?.process) throw new Error('no owner to kill')
    const killedAt = performance.now()
    owner.process.kill()
    for (;;) {
      const page = await get(cluster.balancer.port, user.previewHost, '/', {
        cookie: user.cookie,
        accept: 'text/html',
      }).catch(() => ({ status: 0, body: '' }))
      if (page.status === 200 && page.body.includes('<div id="root">')) break
      if (performance.now() - killedAt > 120_000) throw new Error('the preview never came back')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    times.push(performance.now() - killedAt)
    await cluster.start(owner)
    await cluster.healthy(owner)
  }
  figures[`kill -9 of the owner → its preview answering through HAProxy (n=${times.length})`] =
    `${times.map(milliseconds).join(', ')}; p95 ${milliseconds(quantile(times, 0.95))}`
}

export async function benchClusterFigures(): Promise<Record<string, string>> {
  const figures: Record<string, string> = {}
  const cluster = await startBenchCluster({ count: 2, basePort, label: 'cluster' })
  const database = new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 })
  const ownerOf = async (applicationId: string) => {
    const { rows } = await database.query(
      `select instances.internal_url from box_leases leases
       join sprout_instances instances on instances.id = leases.instance_id
       where leases.application_id = $1 and leases.expires_at > now()`,
      [applicationId],
    )
    return rows[0] ? Number(new URL(String(rows[0].internal_url)).port) : undefined
  }
  try {
    const user = await signUpAndCreate(
      cluster.balancer.port,
      cluster.balancer.url,
      'cluster-figures@example.com',
    )
    // Each part reports its failure and the next still runs; BENCH_CLUSTER_PARTS picks some
    // (e.g. `preview module` alone, to profile the relay).
    const chosen = process.env.BENCH_CLUSTER_PARTS?.split(',').map((name) => name.trim())
    const part = async (name: string, run: () => Promise<void>) => {
      if (chosen && !chosen.includes(name)) return
      await run().catch((error: Error) => {
        figures[`${name} FAILED`] = error.message
      })
    }
    await part('throughput', () => throughput(cluster, user.token, figures))
    const owner = (await ownerOf(user.applicationId)) ?? 0
    await part('preview module', () => relayedModule(cluster, user, owner, figures))
    await part('HMR', () => relayedHmr(cluster, user, owner, figures))
    await part('kill -9', () =>
      killTimes(cluster, user, () => ownerOf(user.applicationId), figures),
    )
  } finally {
    await database.end()
    await cluster.stop()
  }
  return figures
}
