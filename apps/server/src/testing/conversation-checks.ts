/** TEST HELPERS: a conversation's runs settled, repairs included, and the checks it streamed. */
import type { CheckReport } from '@sprout/protocol/api/checks.ts'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { expect } from 'vitest'
import type { ChatApplication } from './chat-client.ts'

/** Waits until the conversation has no run left here, repairs included. */
export async function settleAllRuns(chat: ChatApplication, conversationId: string) {
  const manager = chat.harness.created.conversations.runs
  for (let round = 0; round < 10 && manager.activeRunCount() > 0; round++) {
    await manager.settled(conversationId)
  }
  expect(manager.activeRunCount()).toBe(0)
}

/** Each check's last report, in the order they started. */
export const finalChecks = (envelopes: StreamEnvelope[]): CheckReport[] => {
  const reports = new Map<string, CheckReport>()
  for (const { chunk } of envelopes) {
    if (chunk.type === 'data-checks') {
      const report = (chunk as { data: CheckReport }).data
      reports.set(report.id, report)
    }
  }
  return [...reports.values()]
}
