// Issue 30: a rolling restart of three instances behind HAProxy (docs/operations/several-instances.md
// "A rolling upgrade": drain, SIGTERM, start, ready) while simulated users chat with the Demo
// model and open their previews. Every request is counted; the run throws when one failed (a
// network error or an answer of 400 and up), or when a conversation's stream, reconnected after a
// drop, lost, repeated or reordered an event.
import { isRunEnd, readStream } from '../apps/server/src/testing/chat-client.ts'
import { readResumableStream, seqsComplete } from '../apps/server/src/testing/resumable-stream.ts'
import { apiCaller } from './lib/api-caller.ts'
import { type BenchCluster, startBenchCluster } from './lib/cluster.ts'
import { type ClusterUser, signUpAndCreate } from './lib/cluster-user.ts'
import { get } from './lib/product-server.ts'

// HAProxy on 29560, instances on 29561–29563 (the H4 range, below Linux's ephemeral one).
const basePort = 29560
const users = Number(process.env.ROLLING_USERS ?? 20)
const durationMs = Number(process.env.ROLLING_SECONDS ?? 60) * 1000
const messages = ['roll 2d6', 'what time is it', 'add a random number to 5']

type Tally = {
  requests: number
  failures: string[]
  /** Previews answered 503 while their box moved (a page that reloads itself). */
  previewsMoving: number
  streamReconnects: number
  runs: number
  runsRestarted: number
  conversationsChecked: number
}

async function userLoop(cluster: BenchCluster, user: ClusterUser, until: number, tally: Tally) {
  const port = cluster.balancer.port
  const call = apiCaller(port, cluster.balancer.url)
  const fail = (what: string) => tally.failures.push(what)
  let conversationId: string | undefined
  let seenSeq = 0
  let index = 0
  while (Date.now() < until) {
    const sent = await call(`/api/demo/applications/${user.applicationId}/message`, {
      method: 'POST',
      token: user.token,
      body: JSON.stringify({
        message: messages[index++ % messages.length],
        model: 'demo',
        ...(conversationId ? { conversation_id: conversationId } : {}),
      }),
    }).catch((error: Error) => ({ ok: false, status: 0, text: async () => error.message }))
    tally.requests += 1
    if (!sent.ok) {
      fail(`message: ${sent.status} ${(await sent.text()).slice(0, 120)}`)
      await new Promise((resolve) => setTimeout(resolve, 1000))
      continue
    }
    const body = (await (sent as Response).json()) as { conversation_id: string }
    conversationId = body.conversation_id
    const listen = `${cluster.balancer.url.replace('localhost', '127.0.0.1')}/api/demo/applications/${user.applicationId}/listen?conversation_id=${conversationId}`
    // The previous run ended at `seenSeq`: the next run's end is this one's.
    const stream = readResumableStream(listen, {
      headers: { authorization: `Bearer ${user.token}` },
      until: isRunEnd,
      timeoutMs: 60_000,
      lastEventId: seenSeq,
    })
    await stream.done.catch((error: Error) => fail(`stream: ${error.message}`))
    if (!stream.envelopes.every((envelope, at) => envelope.seq === seenSeq + at + 1)) {
      fail(`stream of ${conversationId}: seqs not contiguous after ${seenSeq}`)
    }
    seenSeq = stream.envelopes.at(-1)?.seq ?? seenSeq
    tally.requests += 1
    tally.streamReconnects += stream.reconnects
    tally.runs += 1
    if (JSON.stringify(stream.envelopes).includes('The server restarted during this run')) {
      tally.runsRestarted += 1
    }
    for (const pathname of ['/', '/src/App.tsx']) {
      const page = await get(port, user.previewHost, pathname, {
        cookie: user.cookie,
        accept: pathname === '/' ? 'text/html' : '*/*',
      }).catch((error: Error) => ({ status: 0, body: error.message }))
      tally.requests += 1
      if (page.status === 503 && page.body.includes('http-equiv="refresh"'))
        tally.previewsMoving += 1
      else if (page.status !== 200)
        fail(`preview ${pathname}: ${page.status} ${page.body.slice(0, 120)}`)
    }
    const details = await call(`/api/applications/${user.applicationId}`, { token: user.token })
    tally.requests += 1
    if (!details.ok) fail(`details: ${details.status}`)
    await details.body?.cancel()
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
  if (conversationId) await checkConversation(cluster, user, conversationId, tally)
}

/** The whole conversation read again from seq 0: 1..n, and every run ended. */
async function checkConversation(
  cluster: BenchCluster,
  user: ClusterUser,
  conversationId: string,
  tally: Tally,
) {
  const whole = await readStream(
    `${cluster.balancer.url.replace('localhost', '127.0.0.1')}/api/demo/applications/${user.applicationId}/listen?conversation_id=${conversationId}&last_event_id=0`,
    {
      init: { headers: { authorization: `Bearer ${user.token}` } },
      timeoutMs: 20_000,
      idleMs: 3000,
    },
  )
  tally.conversationsChecked += 1
  if (whole.status !== 200) tally.failures.push(`final read: ${whole.status}`)
  else if (!seqsComplete(whole.envelopes)) {
    tally.failures.push(`conversation ${conversationId}: seqs not 1..n`)
  }
}

const drainPauseMs = 2000

async function rollingRestart(cluster: BenchCluster, startAt: number, log: string[]) {
  const gap = (durationMs - 10_000) / cluster.instances.length
  for (const [index, instance] of cluster.instances.entries()) {
    const due = startAt + 5_000 + index * gap
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())))
    const began = Date.now()
    await cluster.balancer.setState(instance.name, 'drain')
    // Step 1's pause (docs/operations/several-instances.md): what HAProxy sent it arrives.
    await new Promise((resolve) => setTimeout(resolve, drainPauseMs))
    await instance.process?.stop()
    await cluster.start(instance)
    await cluster.healthy(instance)
    await cluster.balancer.setState(instance.name, 'ready')
    log.push(`${instance.name} ${Math.round((Date.now() - began) / 100) / 10} s`)
  }
}

/** The failures grouped by their first words, with counts. */
function kinds(failures: string[]) {
  const counts = new Map<string, number>()
  for (const failure of failures) {
    const kind = failure.replace(/\s+/g, ' ').slice(0, 90)
    counts.set(kind, (counts.get(kind) ?? 0) + 1)
  }
  return [...counts].map(([kind, count]) => `; ${count} × ${kind}`).join('')
}

export async function benchRollingRestart(): Promise<Record<string, string>> {
  const cluster = await startBenchCluster({ count: 3, basePort, label: 'rolling' })
  const tally: Tally = {
    requests: 0,
    failures: [],
    previewsMoving: 0,
    streamReconnects: 0,
    runs: 0,
    runsRestarted: 0,
    conversationsChecked: 0,
  }
  const restarts: string[] = []
  try {
    const people: ClusterUser[] = []
    // Five boxes at a time: twenty dev servers starting at once would take the 2 cores for minutes.
    for (let first = 0; first < users; first += 5) {
      const batch = Array.from({ length: Math.min(5, users - first) }, (_, offset) =>
        signUpAndCreate(
          cluster.balancer.port,
          cluster.balancer.url,
          `rolling-${first + offset}@example.com`,
        ),
      )
      people.push(...(await Promise.all(batch)))
    }
    const startAt = Date.now()
    await Promise.all([
      rollingRestart(cluster, startAt, restarts),
      ...people.map((user) => userLoop(cluster, user, startAt + durationMs, tally)),
    ])
  } finally {
    await cluster.stop()
  }
  const figures = {
    'users, seconds': `${users}, ${durationMs / 1000}`,
    'instances restarted (drain → SIGTERM → start → UP)': restarts.join(', '),
    'requests (messages, streams, previews, details)': String(tally.requests),
    'failed requests': `${tally.failures.length}${kinds(tally.failures)}`,
    'stream reconnects': String(tally.streamReconnects),
    'preview answers 503 “moving” (self-reloading page)': String(tally.previewsMoving),
    'runs / ended by a restart (retryable error)': `${tally.runs} / ${tally.runsRestarted}`,
    'conversations read again from seq 0, all complete': `${tally.conversationsChecked}`,
  }
  if (tally.failures.length > 0) {
    console.log(figures)
    throw new Error(`${tally.failures.length} failed requests during the rolling restart`)
  }
  return figures
}
