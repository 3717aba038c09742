// 1,000 listeners on one conversation at 60 chunks/s: delivery latency, server CPU while streaming,
// idle listener memory. Listeners in this process or over BENCH_LISTENER_PROCESSES children, which
// separates the server's latency from reading 1,000 sockets in turn.
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
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

/** Milliseconds on the machine's monotonic clock, the same in every process. */
const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6

/** Listeners of one process: each delivery's latency against the provider's stamps. */
async function openListeners(
  url: string,
  count: number,
  /** This process's clock minus the provider's (`performance.now()` of the parent). */
  clockOffsetMs: number,
  onAllEnded: () => void,
) {
  const latencies: number[] = []
  const listeners: Listener[] = []
  let ended = 0
  for (let index = 0; index < count; index += 50) {
    const batch = Array.from({ length: Math.min(50, count - index) }, () =>
      openListener(url, {
        onLines: (lines, receivedAt) => {
          const at = receivedAt + clockOffsetMs
          for (const match of lines.matchAll(stampPattern)) latencies.push(at - Number(match[1]))
          if (runEndPattern.test(lines) && ++ended === count) onAllEnded()
        },
      }),
    )
    listeners.push(...(await Promise.all(batch)))
  }
  return { latencies, listeners }
}

type ChildMessage = { type: 'opened' } | { type: 'done'; latencies: number[]; cpuSeconds: number }
type ParentMessage =
  | { type: 'open'; url: string; count: number; providerClockMs: number; sentAtMs: number }
  | { type: 'start' }

/** A child process holding some of the listeners (BENCH_LISTENER_PROCESSES). */
function runListenerChild() {
  let cpuBefore = process.cpuUsage()
  let opened: Awaited<ReturnType<typeof openListeners>> | undefined
  let allEnded = false
  const send = (message: ChildMessage) => process.send?.(message)
  const finish = () => {
    if (!opened || !allEnded) return
    const cpu = process.cpuUsage(cpuBefore)
    send({ type: 'done', latencies: opened.latencies, cpuSeconds: (cpu.user + cpu.system) / 1e6 })
    // The parent ends this process once it has the message (a large one takes a while).
    for (const listener of opened.listeners) listener.close()
  }
  process.on('message', async (message: ParentMessage) => {
    if (message.type === 'start') {
      cpuBefore = process.cpuUsage()
      return
    }
    // The parent's performance.now() at `sentAtMs` on the shared monotonic clock.
    const offset = performance.now() - monotonicMs() + message.sentAtMs - message.providerClockMs
    opened = await openListeners(message.url, message.count, -offset, () => {
      allEnded = true
      finish()
    })
    send({ type: 'opened' })
    finish()
  })
}

if (process.env.BENCH_LISTENER_CHILD === '1') runListenerChild()

/** Listeners spread over child processes; `ended` resolves with every delivery's latency. */
async function openListenerProcesses(url: string, count: number, processes: number) {
  const children = Array.from({ length: processes }, () =>
    fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, BENCH_LISTENER_CHILD: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  )
  const results = children.map(
    (child) =>
      new Promise<{ latencies: number[]; cpuSeconds: number }>((resolve, reject) => {
        child.on('message', (message: ChildMessage) => {
          if (message.type === 'done') resolve(message)
        })
        child.on('exit', (code) => reject(new Error(`a listener process exited early (${code})`)))
      }),
  )
  for (const result of results) result.catch(() => undefined)
  await Promise.all(
    children.map((child, index) => {
      const share = Math.floor(count / processes) + (index < count % processes ? 1 : 0)
      const opened = new Promise<void>((resolve) => {
        child.on('message', (message: ChildMessage) => {
          if (message.type === 'opened') resolve()
        })
      })
      const open: ParentMessage = {
        type: 'open',
        url,
        count: share,
        providerClockMs: performance.now(),
        sentAtMs: monotonicMs(),
      }
      child.send(open)
      return opened
    }),
  )
  return {
    start: () => {
      for (const child of children) child.send({ type: 'start' } satisfies ParentMessage)
    },
    ended: async () => {
      const done = await Promise.all(results)
      return {
        latencies: done.flatMap((result) => result.latencies),
        cpuSeconds: done.reduce((sum, result) => sum + result.cpuSeconds, 0),
      }
    },
    close: () => {
      for (const child of children) if (child.connected) child.kill()
    },
  }
}

export async function benchChatListeners(options: BenchOptions = fullRun): Promise<BenchResult> {
  const listenerCount = options.quick ? 1_000 : Number(process.env.BENCH_LISTENERS ?? 1_000)
  const streamSeconds = options.quick ? 5 : Number(process.env.BENCH_SECONDS ?? 10)
  const processes = Number(process.env.BENCH_LISTENER_PROCESSES ?? 0)
  const server = await startChatServer({ port: 3931 })
  let close = () => {}
  try {
    const conversationId = await server.send('Warm up')
    await waitForRunEnd(server, conversationId)
    const after = await server.lastSeq(conversationId)
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    const rssBefore = memoryMiB(server.pid)

    let everyoneSawTheEnd: Promise<void> = Promise.resolve()
    const url = await server.listenUrl(conversationId, after)
    const connectStarted = performance.now()
    let start = () => {}
    let collect: () => Promise<{ latencies: number[]; cpuSeconds: number }>
    if (processes > 0) {
      const children = await openListenerProcesses(url, listenerCount, processes)
      close = children.close
      start = children.start
      collect = children.ended
      everyoneSawTheEnd = children.ended().then(() => undefined)
      // Awaited once the stream is under way; a listener process that dies fails it there.
      everyoneSawTheEnd.catch(() => undefined)
    } else {
      let allEnded: () => void = () => {}
      everyoneSawTheEnd = new Promise<void>((resolve) => {
        allEnded = resolve
      })
      const here = await openListeners(url, listenerCount, 0, () => allEnded())
      close = () => {
        for (const listener of here.listeners) listener.close()
      }
      let clientCpuBefore = process.cpuUsage()
      start = () => {
        clientCpuBefore = process.cpuUsage()
      }
      collect = async () => {
        const cpu = process.cpuUsage(clientCpuBefore)
        return { latencies: here.latencies, cpuSeconds: (cpu.user + cpu.system) / 1e6 }
      }
    }
    const connectSeconds = (performance.now() - connectStarted) / 1_000
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    const rssIdle = memoryMiB(server.pid)

    const deltas = chunksPerSecond * streamSeconds
    server.provider.plan({ deltas, intervalMs: 1_000 / chunksPerSecond })
    const cpuBefore = await cpuSeconds(server.pid)
    start()
    const started = performance.now()
    await server.send('Stream to everyone', conversationId)
    await everyoneSawTheEnd
    const wallSeconds = (performance.now() - started) / 1_000
    const serverCpu = (await cpuSeconds(server.pid)) - cpuBefore
    const { latencies, cpuSeconds: clientSeconds } = await collect()
    const where = processes > 0 ? `${processes} listener processes` : 'one listener process'

    const figures = {
      [`${listenerCount} listeners connected (GET …/listen with a JWT, PGlite)`]: `${connectSeconds.toFixed(1)} s, ${Math.round(listenerCount / connectSeconds)} connections/s`,
      'idle memory per listener (server RSS)': `${(((rssIdle - rssBefore) * 1024) / listenerCount).toFixed(0)} KiB (${rssBefore.toFixed(0)} → ${rssIdle.toFixed(0)} MiB)`,
      [`delivery latency at ${chunksPerSecond} chunks/s to ${listenerCount} listeners (${where})`]: `p50 ${milliseconds(percentile(latencies, 0.5))}, p99 ${milliseconds(percentile(latencies, 0.99))}, max ${milliseconds(latencies.reduce((most, value) => Math.max(most, value), 0))} (${latencies.length} deliveries, expected ${deltas * listenerCount})`,
      'server CPU while streaming': `${((100 * serverCpu) / wallSeconds).toFixed(0)} % of one core (${serverCpu.toFixed(2)} s over ${wallSeconds.toFixed(1)} s); the listeners used ${((100 * clientSeconds) / wallSeconds).toFixed(0)} %`,
    }
    const metrics = [
      metric(
        `delivery at ${chunksPerSecond} chunks/s to ${listenerCount} listeners, p99`,
        percentile(latencies, 0.99),
        'ms',
        'lower',
        `${streamSeconds} s stream, ${where}`,
      ),
    ]
    return { figures, metrics }
  } finally {
    close()
    await server.stop()
  }
}
