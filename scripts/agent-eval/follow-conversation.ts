import type { LatestCheckResponse } from '@sprout/protocol/api/checks.ts'
import { createSseParser } from '@sprout/protocol/stream/sse-parser.ts'
import { parseStreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import type { ProductApi } from './product-api.ts'
import {
  activeRun,
  applyEnvelope,
  emptyTally,
  type RunTally,
  repairMayFollow,
} from './run-tally.ts'

/**
 * Quiet this long after the last run (or check) ended: the check that follows a run, and the
 * repair that follows a failed check, start within milliseconds of it on the server.
 */
const settleMs = 2500
/** After a failed check, the repair turn's start is awaited this long before it counts as none. */
const repairGraceMs = 10_000
const pollMs = 250
/** Connections in a row that end without an event before the stream counts as broken. */
const maxFruitlessConnections = 5

export type FollowResult = RunTally & { timedOut: boolean }

/**
 * Follows the conversation's stream (every stored event, then live ones) until its work is over:
 * no run active, the last check not running (GET …/checks/latest agrees), no repair to come, and
 * the stream quiet for a moment (`repairs`: whether the organization repairs at all). Works
 * whether or not the server checks runs. At `deadline` the
 * active run is interrupted and the result says `timedOut`.
 */
export async function followConversation(
  api: ProductApi,
  target: { applicationId: string; conversationId: string; firstRunId: string },
  options: { deadline: number; signal: AbortSignal; repairs: boolean },
): Promise<FollowResult> {
  const { deadline, signal } = options
  const tally = emptyTally()
  let lastEventAt = Date.now()
  let connection: AbortController | undefined
  let streaming: Promise<void> | undefined
  let streamProblem: unknown
  let fruitless = 0
  const connect = () => {
    fruitless += 1
    if (fruitless > maxFruitlessConnections) {
      throw new Error(`The conversation's stream keeps failing: ${String(streamProblem)}`)
    }
    connection = new AbortController()
    const current = connection
    streaming = readEvents(api, target, tally.lastSeq, current.signal, (envelope) => {
      applyEnvelope(tally, envelope)
      lastEventAt = Date.now()
      fruitless = 0
    }).catch((error: unknown) => {
      if (!current.signal.aborted) streamProblem = error
    })
  }
  connect()
  try {
    for (;;) {
      if (signal.aborted || Date.now() > deadline) {
        await interrupt(api, target).catch(() => undefined)
        return { ...tally, timedOut: !signal.aborted }
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs))
      if (streamProblem !== undefined || (await isSettled(streaming))) {
        // The stream ended or failed: resume after the last event seen.
        connect()
        streamProblem = undefined
        continue
      }
      const started = tally.runs.some((run) => run.id === target.firstRunId)
      if (!started || activeRun(tally)) continue
      if (tally.checks.some((check) => check.state === 'running')) continue
      const quiet = Date.now() - lastEventAt
      if (quiet < settleMs) continue
      if (options.repairs && repairMayFollow(tally) && quiet < repairGraceMs) continue
      // A check the stream has not shown yet is running on the server.
      if ((await latestCheck(api, target.applicationId))?.state === 'running') continue
      // Nothing arrived while the server was asked.
      if (Date.now() - lastEventAt >= settleMs) return { ...tally, timedOut: false }
    }
  } finally {
    connection?.abort()
    await streaming
  }
}

async function isSettled(promise: Promise<void> | undefined): Promise<boolean> {
  if (!promise) return true
  const marker = Symbol('pending')
  return (await Promise.race([promise.then(() => true), Promise.resolve(marker)])) !== marker
}

async function readEvents(
  api: ProductApi,
  target: { applicationId: string; conversationId: string },
  after: number,
  signal: AbortSignal,
  onEnvelope: (envelope: NonNullable<ReturnType<typeof parseStreamEnvelope>>) => void,
) {
  // A 5-minute JWT per connection, as the web does (docs/architecture/stream-protocol.md).
  const { token } = await api.call<{ token: string }>('/api/auth/token')
  const query = new URLSearchParams({
    conversation_id: target.conversationId,
    token,
    // 0 replays every stored event uncompacted: model steps are counted too.
    last_event_id: String(after),
  })
  const url = `http://127.0.0.1:${api.port}/api/demo/applications/${target.applicationId}/listen?${query}`
  const response = await fetch(url, { signal, headers: { origin: api.origin } })
  if (!response.ok || !response.body) {
    throw new Error(`listen answered ${response.status}: ${await response.text()}`)
  }
  const parser = createSseParser()
  for await (const piece of response.body) {
    for (const event of parser.feed(piece)) {
      const envelope = parseStreamEnvelope(event.data)
      if (envelope) onEnvelope(envelope)
    }
  }
}

/** GET …/checks/latest; null before checks exist on the server or before the first check. */
async function latestCheck(api: ProductApi, applicationId: string) {
  try {
    const answer = await api.call<LatestCheckResponse>(
      `/api/applications/${applicationId}/checks/latest`,
    )
    return answer?.check ?? null
  } catch {
    return null
  }
}

function interrupt(api: ProductApi, target: { applicationId: string; conversationId: string }) {
  return api.call(
    `/api/demo/applications/${target.applicationId}/interrupt?conversation_id=${target.conversationId}`,
    { method: 'POST', body: {} },
  )
}
