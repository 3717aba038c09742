// A run's end → its check shown (docs/product/checks.md "The check"), in process on PGlite with a
// real dev box and the Demo model: each run rewrites src/App.tsx, so each is checked. Timed from
// the run's closing `data-run` to the check's first `data-checks` (the block appears) and to its
// last; the overhead is the latter minus the check's own time (its report's start to finish).
import type { CheckReport } from '@sprout/protocol/api/checks.ts'
import { readyBenchApplication } from './lib/ready-application.ts'
import { milliseconds, p50AndP95 } from './lib/stats.ts'

const runs = 6
const prompts = ['Build a recipe tracker', 'Build a plant diary', 'Build a book list']

type Seen = { runEnd?: number; first?: number; last?: number; report?: CheckReport }

export async function benchCheckAfterRun(): Promise<Record<string, string>> {
  const { harness, applicationId, as } = await readyBenchApplication({ CHECKS: 'on' })
  try {
    const store = harness.created.conversations.store
    const manager = harness.created.conversations.runs
    const shown: number[] = []
    const overhead: number[] = []
    const checkTimes: number[] = []
    const typeCheckTimes: number[] = []
    let conversationId: string | undefined
    let after = 0
    for (let index = 0; index < runs; index++) {
      const response = await as(`/api/demo/applications/${applicationId}/message`, {
        method: 'POST',
        body: JSON.stringify({
          message: prompts[index % prompts.length],
          model: 'demo',
          ...(conversationId ? { conversation_id: conversationId } : {}),
        }),
      })
      const sent = (await response.json()) as { conversation_id: string; run_id: string }
      conversationId = sent.conversation_id
      const seen: Seen = {}
      // Read as a listener would, every 5 ms, until the check is done.
      while (!(seen.report && seen.report.state !== 'running')) {
        for (const event of await store.read(conversationId, after, Number.MAX_SAFE_INTEGER, 500)) {
          after = event.seq
          const chunk = JSON.parse(event.chunkText) as { type: string; data?: unknown }
          const now = performance.now()
          const data = chunk.data as { status?: string; runId?: string } | undefined
          if (chunk.type === 'data-run' && data?.runId === sent.run_id && data.status !== 'running')
            seen.runEnd = now
          if (chunk.type === 'data-checks') {
            seen.first ??= now
            seen.last = now
            seen.report = chunk.data as CheckReport
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      await manager.settled(conversationId)
      const { report, runEnd = 0, first = 0, last = 0 } = seen
      const own = Date.parse(report.finishedAt ?? report.startedAt) - Date.parse(report.startedAt)
      shown.push(first - runEnd)
      checkTimes.push(own)
      typeCheckTimes.push(report.parts.find((part) => part.name === 'types')?.durationMs ?? 0)
      overhead.push(last - runEnd - own)
      if (report.state !== 'passed')
        throw new Error(`the check did not pass: ${JSON.stringify(report)}`)
    }
    return {
      [`run end → Checks block shown ('Checking…'), ${runs} runs: p50 / p95`]: p50AndP95(shown),
      [`run end → check done, minus the check's own time: p50 / p95`]: p50AndP95(overhead),
      [`the check's own time (starter app, one file changed): p50 / p95 / max`]: `${p50AndP95(checkTimes)} / ${milliseconds(Math.max(...checkTimes))}`,
      ['its incremental type check: p50 / p95']: p50AndP95(typeCheckTimes),
    }
  } finally {
    await harness.close()
  }
}
