import { randomUUID } from 'node:crypto'
import { createLanguageModel } from '@sprout/agent/providers/create-language-model.ts'
import { ModelUnavailableError } from '@sprout/agent/providers/model-unavailable-error.ts'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import { conversations } from '@sprout/db/schema/conversations.ts'
import { runs } from '@sprout/db/schema/runs.ts'
import { DEMO_MODEL_ID, pickDefaultModel } from '@sprout/protocol/models.ts'
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Config } from '../config/config.ts'
import type { DevboxRuntime } from '../devboxes/runtime/devbox-runtime.ts'
import { badRequest, conflict, notFound } from '../errors/app-error.ts'
import { listModels } from '../models/service.ts'
import type { EventStore } from '../stream/event-store.ts'
import type { RunSecrets } from '../vault/service.ts'
import { createCheckpointQueue } from './checkpoints.ts'
import { closeRun, emitSafely } from './close-run.ts'
import type { ConversationRecord } from './conversation-records.ts'
import {
  type ActiveRun,
  executeRun,
  OPENING_FAILED_MESSAGE,
  type RunEnvironment,
  type StartRunInput,
} from './execute-run.ts'
import { openRun } from './open-run.ts'
import type { RunSettings } from './run-settings.ts'
import { recoverStaleRuns } from './stale-runs.ts'

const INTERRUPTS_CHANNEL = 'conversation_interrupts'
const DEFAULT_CONTEXT_WINDOW = 128_000

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

const isUniqueViolation = (error: unknown): boolean => {
  const fields = error as { code?: unknown; cause?: { code?: unknown } }
  return fields.code === '23505' || fields.cause?.code === '23505'
}

/**
 * Agent runs of this server process: each one executes here, independent of any browser, writes
 * its chunks to the event store and its history to `messages`, and heartbeats its `runs` row.
 * At most one run per conversation is `running` (a partial unique index decides races).
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one closure holds the process's active runs that its methods share
export function createRunManager(options: {
  database: DatabaseHandle
  config: Config
  devboxes: DevboxRuntime
  store: EventStore
  settings: RunSettings
  secrets?: RunSecrets
}): RunManager {
  const { database, config, store, settings } = options
  const db = database.db
  const instanceId = randomUUID()
  const active = new Map<string, ActiveRun>()
  let halted = false
  let timer: ReturnType<typeof setInterval> | undefined
  let ticking: Promise<void> = Promise.resolve()
  let stopListening: (() => Promise<void>) | undefined
  const environment: RunEnvironment = {
    ...options,
    isHalted: () => halted,
    checkpoint: createCheckpointQueue(),
  }
  const closing = { database, store }

  const contextWindowOf = (modelId: string) =>
    listModels(config).find((model) => model.model === modelId)?.contextWindow ??
    DEFAULT_CONTEXT_WINDOW

  const languageModelFor = (modelId: string) => {
    try {
      return createLanguageModel(modelId, config.providers)
    } catch (error) {
      if (error instanceof ModelUnavailableError) throw badRequest(error.message)
      throw error
    }
  }

  // Claims the conversation and touches its row in one statement (docs/architecture/agent-loop.md
  // "Starting"): a refused claim touches nothing, and no update waits before the first token.
  const claimConversation = async (
    conversationId: string,
    runId: string,
    model: string,
    withUserMessage: boolean,
  ): Promise<ConversationRecord> => {
    for (let attempt = 0; ; attempt++) {
      try {
        const claimed = db.$with('claimed').as(
          db
            .insert(runs)
            .values({
              id: runId,
              conversationId,
              status: 'running',
              model,
              ownerInstance: instanceId,
            })
            .returning({ conversationId: runs.conversationId }),
        )
        const [record] = await db
          .with(claimed)
          .update(conversations)
          .set({
            activeModel: model,
            updatedAt: sql`now()`,
            ...(withUserMessage ? { lastMessageAt: sql`now()` } : {}),
          })
          .where(inArray(conversations.id, db.select({ id: claimed.conversationId }).from(claimed)))
          .returning()
        if (!record) throw notFound('Conversation not found')
        return record
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
        // A run of this process that is interrupted or just closing: wait for it rather than
        // refuse, so a retry or a new message right after Escape starts a new run.
        const current = active.get(conversationId)
        if (attempt === 0 && (current?.closing || current?.controller.signal.aborted)) {
          await current.done
          continue
        }
        throw conflict(
          'The agent is already working in this conversation. Stage the message (POST …/stage-message) or interrupt the run first.',
        )
      }
    }
  }

  const tick = async () => {
    if (active.size > 0) {
      await db
        .update(runs)
        .set({ heartbeatAt: sql`now()` })
        .where(and(eq(runs.ownerInstance, instanceId), eq(runs.status, 'running')))
    }
    await recoverStaleRuns(closing, instanceId, settings.staleAfterMs)
  }

  const stopAll = async (asRestart: boolean) => {
    clearInterval(timer)
    await ticking
    await stopListening?.()
    const stopping = [...active.values()]
    for (const run of stopping) {
      run.shuttingDown = asRestart
      run.controller.abort()
    }
    await Promise.allSettled(stopping.map((run) => run.done))
  }

  return {
    instanceId,

    defaultModel: () => pickDefaultModel(listModels(config)) ?? DEMO_MODEL_ID,

    start: async () => {
      stopListening = await database.listen(INTERRUPTS_CHANNEL, (runId) => {
        for (const run of active.values()) if (run.id === runId) run.controller.abort()
      })
      // PGlite serves one process only, so any run still `running` belonged to a dead one.
      await recoverStaleRuns(
        closing,
        instanceId,
        database.kind === 'pglite' ? undefined : settings.staleAfterMs,
      )
      timer = setInterval(() => {
        ticking = ticking
          .then(tick)
          .catch((error: unknown) => console.error('[runs] heartbeat failed:', error))
      }, settings.heartbeatMs)
      timer.unref()
    },

    stop: () => stopAll(true),

    halt: async () => {
      halted = true
      await stopAll(false)
    },

    startRun: async (input) => {
      const model = languageModelFor(input.model)
      const conversationId = input.conversation.id
      const runId = randomUUID()
      const conversation = await claimConversation(
        conversationId,
        runId,
        input.model,
        input.userMessage !== undefined,
      )
      let opened: Awaited<ReturnType<typeof openRun>>
      try {
        opened = await openRun(closing, { id: runId, conversationId }, input)
      } catch (error) {
        // Reading or appending the history failed: the run ends as one whose opening failed
        // (its error and `data-run failed` in the stream, the row closed); the POST fails.
        const reference = { id: runId, conversationId }
        emitSafely(store, reference, {
          type: 'data-error',
          data: { error: OPENING_FAILED_MESSAGE, errorType: 'internal' },
        })
        await closeRun(closing, reference, {
          status: 'failed',
          sawFinish: false,
          error: OPENING_FAILED_MESSAGE,
        })
        throw error
      }
      const run: ActiveRun = {
        id: runId,
        conversationId,
        controller: new AbortController(),
        done: Promise.resolve(),
        shuttingDown: false,
        closing: false,
        openingFailed: false,
        opened: opened.stored.then(
          () => true,
          () => false,
        ),
      }
      const withWindow = { ...input, contextWindow: contextWindowOf(input.model) }
      // A running run keeps its app's dev server from idling (docs/architecture/devbox.md).
      const { applicationId, kind } = input.conversation
      const releaseBox =
        kind === 'builder' && applicationId ? options.devboxes.hold(applicationId) : undefined
      run.done = executeRun(environment, run, withWindow, model, opened.history)
        .catch((error: unknown) => console.error('[runs] closing a run failed:', error))
        .finally(() => {
          releaseBox?.()
          if (active.get(conversationId) === run) active.delete(conversationId)
        })
      active.set(conversationId, run)
      try {
        await opened.stored
        return { runId, conversation }
      } catch (error) {
        run.openingFailed = true
        run.controller.abort()
        await run.done
        throw error
      }
    },

    interrupt: async (conversationId) => {
      const local = active.get(conversationId)
      if (local) {
        local.controller.abort()
        return true
      }
      const rows = await db
        .select({ id: runs.id })
        .from(runs)
        .where(and(eq(runs.conversationId, conversationId), eq(runs.status, 'running')))
        .limit(1)
      const running = rows[0]
      if (!running) return false
      await database.notify(INTERRUPTS_CHANNEL, running.id)
      return true
    },

    settled: async (conversationId) => {
      await active.get(conversationId)?.done
    },

    settleInterrupted: async (conversationId, timeoutMs = 5000) => {
      const run = active.get(conversationId)
      if (!run?.controller.signal.aborted) return
      await Promise.race([run.done, new Promise((resolve) => setTimeout(resolve, timeoutMs))])
    },

    activeRunCount: () => active.size,
  }
}
