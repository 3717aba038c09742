// A minimal Anthropic Messages API that streams one text block of timestamped deltas, paced as
// asked: the figures of the chat benchmarks measure Sprout, not a provider.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { listenOnLoopback } from '../../packages/agent/src/testing/listen-on-loopback.ts'

export type StreamPlan = {
  deltas: number
  /** 0: as fast as the socket takes them. */
  intervalMs: number
}

export type PacedAnthropic = {
  baseUrl: string
  /** The plans of the next requests, in order (a request without a plan gets one short delta). */
  plan: (...plans: StreamPlan[]) => void
  /** performance.now() of each request's arrival and of its first delta, in order. */
  timings: { arrivedAt: number; firstDeltaAt: number }[]
  close: () => Promise<void>
}

/** Each delta carries `⟨performance.now()⟩` of its write, to measure delivery latency. */
export const stampPattern = /⟨(\d+\.\d+)⟩/g

export async function startPacedAnthropic(): Promise<PacedAnthropic> {
  const plans: StreamPlan[] = []
  const timings: PacedAnthropic['timings'] = []

  const write = (response: ServerResponse, event: string, data: unknown): Promise<void> => {
    const ok = response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
    return ok ? Promise.resolve() : new Promise((resolve) => response.once('drain', resolve))
  }

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const arrivedAt = performance.now()
    for await (const _ of request) {
      // the body is not needed
    }
    const plan = plans.shift() ?? { deltas: 1, intervalMs: 0 }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    let open = true
    response.on('close', () => {
      open = false
    })
    await write(response, 'message_start', {
      type: 'message_start',
      message: {
        id: 'msg_bench',
        type: 'message',
        role: 'assistant',
        model: 'claude-haiku-4-5',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 100, output_tokens: 1 },
      },
    })
    await write(response, 'content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    })
    const timing = { arrivedAt, firstDeltaAt: 0 }
    timings.push(timing)
    const started = performance.now()
    for (let index = 0; index < plan.deltas && open; index++) {
      if (plan.intervalMs > 0) {
        const due = started + index * plan.intervalMs
        const wait = due - performance.now()
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      }
      const now = performance.now()
      if (index === 0) timing.firstDeltaAt = now
      await write(response, 'content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: `⟨${now.toFixed(3)}⟩ ` },
      })
    }
    await write(response, 'content_block_stop', { type: 'content_block_stop', index: 0 })
    await write(response, 'message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: plan.deltas },
    })
    await write(response, 'message_stop', { type: 'message_stop' })
    response.end()
  }

  const server = await listenOnLoopback((request, response) => {
    handle(request, response).catch(() => response.destroy())
  })
  return {
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    plan: (...more) => plans.push(...more),
    timings,
    close: server.close,
  }
}
