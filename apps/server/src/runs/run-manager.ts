import { DEMO_MODEL_ID, pickDefaultModel } from '@sprout/protocol/models.ts'
import { listModels } from '../models/service.ts'
import type { ConversationRecord } from './conversation-records.ts'
import { interruptRun, settleInterrupted } from './interrupt-run.ts'
import { startHeartbeat, stopAllRuns } from './run-heartbeat.ts'
import { createRunManagerState, type RunManagerOptions } from './run-manager-state.ts'
import type { StartRunInput } from './run-types.ts'
import { startRun } from './start-run.ts'

/** The agent runs of one server process (docs/architecture/agent-loop.md "Runs on the server"). */
export type RunManager = {
  instanceId: string
  /** claude-haiku-4-5 when its provider is configured, else the first model that can run. */
  defaultModel: () => string
  start: () => Promise<void>
  /** Stops the process's runs; each ends with the retryable restart error. */
  stop: () => Promise<void>
  /** Stops as a crashed process would: runs stay `running` and nothing more is written. */
  halt: () => Promise<void>
  /**
   * Starts a run: claims the conversation (409 while another run is active) and executes it in
   * the background. The provider call starts while the user message is being stored; this
   * resolves once it is stored, with the conversation as the run left it.
   */
  startRun: (input: StartRunInput) => Promise<{ runId: string; conversation: ConversationRecord }>
  /** Aborts the conversation's run here, or asks the process running it; false when idle. */
  interrupt: (conversationId: string) => Promise<boolean>
  /** Resolves when the conversation's run in this process (if any) has closed. */
  settled: (conversationId: string) => Promise<void>
  /** Waits (bounded) for an interrupted run of this process to finish closing. */
  settleInterrupted: (conversationId: string, timeoutMs?: number) => Promise<void>
  activeRunCount: () => number
}

/**
 * Agent runs of this server process: each one executes here, independent of any browser, writes
 * its chunks to the event store and its history to `messages`, and heartbeats its `runs` row.
 * At most one run per conversation is `running` (a partial unique index decides races).
 */
export function createRunManager(options: RunManagerOptions): RunManager {
  const state = createRunManagerState(options)
  return {
    instanceId: state.instanceId,
    defaultModel: () => pickDefaultModel(listModels(options.config)) ?? DEMO_MODEL_ID,
    start: () => startHeartbeat(state),
    stop: () => stopAllRuns(state, true),
    halt: async () => {
      state.halted = true
      await stopAllRuns(state, false)
    },
    startRun: (input) => startRun(state, input),
    interrupt: (conversationId) => interruptRun(state, conversationId),
    settled: async (conversationId) => {
      await state.active.get(conversationId)?.done
    },
    settleInterrupted: (conversationId, timeoutMs = 5000) =>
      settleInterrupted(state, conversationId, timeoutMs),
    activeRunCount: () => state.active.size,
  }
}
