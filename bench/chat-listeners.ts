// 1,000 listeners on one streaming conversation at 60 chunks/s: delivery latency (provider write →
// SSE at each listener), the server's CPU share while streaming, and the memory of an idle
// listener. The listeners run in this process (raw sockets, no SSE parsing), on the same machine.
import { waitForRunEnd } from './chat-stream.ts'
import {
  cpuSeconds,
  type Listener,
  memoryMiB,
  milliseconds,
  openListener,
  percentile,
  runEndPattern,
  startChatServer,
} from './lib/chat-server.ts'
import { type BenchOptions, type BenchResult, fullRun, metric } from './lib/metrics.ts'
import { stampPattern } from './lib/paced-anthropic.ts'

const chunksPerSecond = 60

export async function benchChatListeners(options: BenchOptions = fullRun): Promise<BenchResult> {
  const listenerCount = options.quick ? 1_000 : Number(process.env.BENCH_LISTENERS ?? 1_000)
  const streamSeconds = options.quick ? 5 : Number(process.env.BENCH_SECONDS ?? 10)
  const server = await startChatServer({ port: 3931 })
  const listeners: Listener[] = []
  try {
    const conversationId = await server.send('Warm up')
    await waitForRunEnd(server, conversationId)
    const after = await server.lastSeq(conversationId)
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    const rssBefore = memoryMiB(server.pid)

    const latencies: number[] = []
    let ended = 0
    let allEnded: () => void = () => {}
    const everyoneSawTheEnd = new Promise<void>((resolve) => {
      allEnded = resolve
    })
    const url = await server.listenUrl(conversationId, after)
    const connectStarted = performance.now()
    for (let index = 0; index < listenerCount; index += 50) {
      const batch = Array.from({ length: Math.min(50, listenerCount - index) }, () =>
        openListener(url, {
          onLines: (lines, receivedAt) => {
            for (const match of lines.matchAll(stampPattern)) {
              latencies.push(receivedAt - Number(match[1]))
            }
            if (runEndPattern.test(lines) && ++ended === listenerCount) allEnded()
          },
        }),
      )
      listeners.push(...(await Promise.all(batch)))
    }
    const connectSeconds = (performance.now() - connectStarted) / 1_000
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    const rssIdle = memoryMiB(server.pid)

    const deltas = chunksPerSecond * streamSeconds
    server.provider.plan({ deltas, intervalMs: 1_000 / chunksPerSecond })
    const cpuBefore = await cpuSeconds(server.pid)
    const clientCpuBefore = process.cpuUsage()
    const started = performance.now()
    await server.send('Stream to everyone', conversationId)
    await everyoneSawTheEnd
    const wallSeconds = (performance.now() - started) / 1_000
    const serverCpu = (await cpuSeconds(server.pid)) - cpuBefore
    const clientCpu = process.cpuUsage(clientCpuBefore)
    const clientSeconds = (clientCpu.user + clientCpu.system) / 1e6

    const figures = {
      [`${listenerCount} listeners connected (GET …/listen with a JWT, PGlite)`]: `${connectSeconds.toFixed(1)} s, ${Math.round(listenerCount / connectSeconds)} connections/s`,
      'idle memory per listener (server RSS)': `${(((rssIdle - rssBefore) * 1024) / listenerCount).toFixed(0)} KiB (${rssBefore.toFixed(0)} → ${rssIdle.toFixed(0)} MiB)`,
      [`delivery latency at ${chunksPerSecond} chunks/s to ${listenerCount} listeners`]: `p50 ${milliseconds(percentile(latencies, 0.5))}, p99 ${milliseconds(percentile(latencies, 0.99))}, max ${milliseconds(latencies.reduce((most, value) => Math.max(most, value), 0))} (${latencies.length} deliveries, expected ${deltas * listenerCount})`,
      'server CPU while streaming': `${((100 * serverCpu) / wallSeconds).toFixed(0)} % of one core (${serverCpu.toFixed(2)} s over ${wallSeconds.toFixed(1)} s); the listeners' process used ${((100 * clientSeconds) / wallSeconds).toFixed(0)} %`,
    }
    const metrics = [
      metric(
        `delivery at ${chunksPerSecond} chunks/s to ${listenerCount} listeners, p99`,
        percentile(latencies, 0.99),
        'ms',
        'lower',
        `${streamSeconds} s stream`,
      ),
    ]
    return { figures, metrics }
  } finally {
    for (const listener of listeners) listener.close()
    await server.stop()
  }
}
