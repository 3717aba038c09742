// The chat stream, one listener: server overhead per streamed chunk (provider write → SSE bytes
// at the listener), server CPU per chunk at zero provider latency, time-to-first-token overhead,
// and a reconnect replaying 500 events. PGlite, and PostgreSQL when it answers.

import { createBenchDatabase } from './lib/bench-database.ts'
import {
  type ChatServer,
  cpuSeconds,
  milliseconds,
  openListener,
  percentile,
  runEndPattern,
  startChatServer,
} from './lib/chat-server.ts'
import { type BenchOptions, type BenchResult, fullRun, metric } from './lib/metrics.ts'
import { stampPattern } from './lib/paced-anthropic.ts'

const firstTokenRuns = 20

/** One listener on the conversation for the whole measurement. */
async function watchConversation(server: ChatServer, conversationId: string, after: number) {
  let latencies: number[] = []
  let firstStampAt: number | undefined
  let firstStampValue: number | undefined
  let lastStampAt: number | undefined
  let onEnd: (() => void) | undefined
  const listener = await openListener(await server.listenUrl(conversationId, after), {
    onLines: (lines, receivedAt) => {
      for (const match of lines.matchAll(stampPattern)) {
        const stamp = Number(match[1])
        latencies.push(receivedAt - stamp)
        lastStampAt = receivedAt
        if (firstStampAt === undefined) {
          firstStampAt = receivedAt
          firstStampValue = stamp
        }
      }
      if (runEndPattern.test(lines)) onEnd?.()
    },
  })
  return {
    listener,
    /** Sends a message and resolves at the run's end, with what the listener saw of it. */
    run: async (message: string) => {
      latencies = []
      firstStampAt = undefined
      firstStampValue = undefined
      lastStampAt = undefined
      const ended = new Promise<void>((resolve) => {
        onEnd = resolve
      })
      const sentAt = performance.now()
      await server.send(message, conversationId)
      await ended
      return { sentAt, latencies, firstStampAt, firstStampValue, lastStampAt }
    },
  }
}

/** Waits until the conversation's first run has ended. */
export async function waitForRunEnd(server: ChatServer, conversationId: string) {
  let ended: () => void = () => {}
  const done = new Promise<void>((resolve) => {
    ended = resolve
  })
  const listener = await openListener(await server.listenUrl(conversationId, 0), {
    onLines: (lines) => {
      if (runEndPattern.test(lines)) ended()
    },
  })
  await done
  listener.close()
}

/** Quick (`--compare`): time to first token only. */
async function measure(server: ChatServer, label: string, quick: boolean): Promise<BenchResult> {
  const conversationId = await server.send('Warm up')
  await waitForRunEnd(server, conversationId)
  const watch = await watchConversation(
    server,
    conversationId,
    await server.lastSeq(conversationId),
  )
  const figures: Record<string, string> = {}
  if (!quick) Object.assign(figures, await measureStreaming(server, conversationId, watch, label))

  // Time to first token: the request to the first delta at the listener, minus the provider's own.
  const overheads: number[] = []
  for (let attempt = 0; attempt < firstTokenRuns; attempt++) {
    server.provider.plan({ deltas: 1, intervalMs: 0 })
    const timingIndex = server.provider.timings.length
    const result = await watch.run(`First token ${attempt}`)
    const timing = server.provider.timings[timingIndex]
    if (!timing || result.firstStampAt === undefined) continue
    const total = result.firstStampAt - result.sentAt
    overheads.push(total - (timing.firstDeltaAt - timing.arrivedAt))
  }
  figures[`time-to-first-token overhead, POST …/message → first delta at the listener (${label})`] =
    `p50 ${milliseconds(percentile(overheads, 0.5))}, p95 ${milliseconds(percentile(overheads, 0.95))} (${overheads.length} runs)`
  watch.listener.close()
  const metrics = [
    metric(
      `time-to-first-token overhead, p50 (${label})`,
      percentile(overheads, 0.5),
      'ms',
      'lower',
      `n=${overheads.length}`,
    ),
  ]
  if (!quick) Object.assign(figures, await measureReconnect(server, conversationId, label))
  return { figures, metrics }
}

async function measureStreaming(
  server: ChatServer,
  conversationId: string,
  watch: Awaited<ReturnType<typeof watchConversation>>,
  label: string,
): Promise<Record<string, string>> {
  const figures: Record<string, string> = {}
  // Paced at 200 deltas/s: what each chunk costs on its way, without queueing.
  server.provider.plan({ deltas: 200, intervalMs: 5 })
  await watch.run('Warm up the path')
  server.provider.plan({ deltas: 2_000, intervalMs: 5 })
  const paced = await watch.run('Paced stream')
  figures[`per-chunk latency, provider write → SSE at the listener, 200 chunks/s (${label})`] =
    `p50 ${milliseconds(percentile(paced.latencies, 0.5))}, p99 ${milliseconds(percentile(paced.latencies, 0.99))} (${paced.latencies.length} chunks)`

  // Zero provider latency: as fast as the server goes.
  const seqBefore = await server.lastSeq(conversationId)
  const cpuBefore = await cpuSeconds(server.pid)
  const deltas = 5_000
  server.provider.plan({ deltas, intervalMs: 0 })
  const flood = await watch.run('Flood')
  const cpuUsed = (await cpuSeconds(server.pid)) - cpuBefore
  const stored = (await server.lastSeq(conversationId)) - seqBefore
  const seconds = ((flood.lastStampAt ?? 0) - (flood.firstStampValue ?? 0)) / 1_000
  figures[`zero-latency provider, ${deltas} chunks (${label})`] =
    `${Math.round(deltas / seconds)} chunks/s from the provider's first write to the listener's last read, server CPU ${((cpuUsed * 1e6) / deltas).toFixed(0)} µs/chunk (whole run incl. HTTP, AI SDK, storage), ${stored} events stored (deltas coalesced), latency p50 ${milliseconds(percentile(flood.latencies, 0.5))}, p99 ${milliseconds(percentile(flood.latencies, 0.99))}`
  return figures
}

async function measureReconnect(
  server: ChatServer,
  conversationId: string,
  label: string,
): Promise<Record<string, string>> {
  const figures: Record<string, string> = {}
  // Reconnect: a client that missed the last 500 events.
  const last = await server.lastSeq(conversationId)
  const replays: number[] = []
  for (let attempt = 0; attempt < 60; attempt++) {
    const url = await server.listenUrl(conversationId, last - 500)
    const started = performance.now()
    let events = 0
    let done: () => void = () => {}
    const complete = new Promise<void>((resolve) => {
      done = resolve
    })
    const listener = await openListener(url, {
      onLines: (lines) => {
        events += lines.match(/^id: /gm)?.length ?? 0
        if (events >= 500) done()
      },
    })
    await complete
    replays.push(performance.now() - started)
    listener.close()
  }
  figures[`reconnect replaying 500 events, connect → last event (${label})`] =
    `p50 ${milliseconds(percentile(replays, 0.5))}, p95 ${milliseconds(percentile(replays, 0.95))}`
  return figures
}

/** Quick (`--compare`): PGlite only. */
export async function benchChatStream(options: BenchOptions = fullRun): Promise<BenchResult> {
  const result: BenchResult = { figures: {}, metrics: [] }
  const add = (more: BenchResult) => {
    Object.assign(result.figures, more.figures)
    result.metrics.push(...more.metrics)
  }
  const pglite = await startChatServer({ port: 3921 })
  try {
    add(await measure(pglite, 'PGlite', options.quick))
  } finally {
    await pglite.stop()
  }
  const database = options.quick ? undefined : await createBenchDatabase('chat')
  if (database) {
    const postgres = await startChatServer({ port: 3922, databaseUrl: database.url })
    try {
      add(await measure(postgres, 'PostgreSQL', false))
    } finally {
      await postgres.stop()
      await database.drop()
    }
  }
  return result
}
