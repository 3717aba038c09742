import { randomUUID } from 'node:crypto'
import type { AgentChunk } from '@sprout/agent/agent-chunk.ts'
import { createLanguageModel } from '@sprout/agent/providers/create-language-model.ts'
import { ModelUnavailableError } from '@sprout/agent/providers/model-unavailable-error.ts'
import { runAgent } from '@sprout/agent/run-agent.ts'
import { buildSystemPrompt } from '@sprout/agent/system-prompt.ts'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import { runs } from '@sprout/db/schema/runs.ts'
import { DEMO_MODEL_ID, pickDefaultModel } from '@sprout/protocol/models.ts'
import type { RunStatus, StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import type { ModelMessage } from 'ai'
import { and, eq, sql } from 'drizzle-orm'
import type { Config } from '../config/config.ts'
import type { DevboxRuntime } from '../devboxes/devbox-runtime.ts'
import { AppError, badRequest, conflict } from '../errors/app-error.ts'
import { explorationSystemPrompt } from '../explorations/exploration-prompt.ts'
import { listModels } from '../models/service.ts'
import type { EventStore } from '../stream/event-store.ts'
import { type ConversationRecord, replaceHistory } from './conversation-records.ts'
import {
  closeRun,
  emitSafely,
  openRun,
  RESTART_ERROR_MESSAGE,
  recoverStaleRuns,
} from './run-lifecycle.ts'
import { takeStagedMessages } from './staged-messages.ts'

const INTERRUPTS_CHANNEL = 'conversation_interrupts'
const OPENING_FAILED_MESSAGE = 'The run could not start.'
const DEFAULT_CONTEXT_WINDOW = 128_000

export type RunSettings = {
  /** How often a process marks its runs alive (and looks for runs of dead processes). */
  heartbeatMs: number
  /** A run whose process has not marked it alive for this long is taken as dead. */
  staleAfterMs: number
  /** Provider retries on 429/5xx before a run fails; undefined keeps the AI SDK's default (2). */
  maxRetries: number | undefined
  /** How long a stage-message request waits to be taken (below the client's 30 s timeout). */
  stageTimeoutMs: number
}

export const defaultRunSettings: RunSettings = {
  heartbeatMs: 5_000,
  staleAfterMs: 30_000,
  maxRetries: undefined,
  stageTimeoutMs: 29_000,
}

type ActiveRun = {
  id: string
  conversationId: string
  controller: AbortController
  done: Promise<void>
  /** The server is stopping: the run ends as a restart error, retryable after the restart. */
  shuttingDown: boolean
  /** The agent is done and the closing events are being written. */
  closing: boolean
  /** Storing the run's opening (the user message) failed: the run ends as failed. */
  openingFailed: boolean
}

export type StartRunInput = {
  conversation: ConversationRecord
  model: string
  /** The builder's application name, for the system prompt. */
  appName?: string
  /** A new user message; without it the run continues the stored history (retry). */
  userMessage?: { text: string; clientId: string | undefined }
}

export type RunManager = ReturnType<typeof createRunManager>

const isUniqueViolation = (error: unknown): boolean => {
  const fields = error as { code?: unknown; cause?: { code?: unknown } }
  return fields.code === '23505' || fields.cause?.code === '23505'
}

/** Anthropic and others attach provider metadata to chunks; the chat has no use for it. */
function forStorage(chunk: AgentChunk): StreamChunk {
  if (!('providerMetadata' in chunk)) return chunk as StreamChunk
  const { providerMetadata: _dropped, ...rest } = chunk
  return rest as StreamChunk
}

/**
 * Agent runs of this server process: each one executes here, independent of any browser, writes
 * its chunks to the event store and its history to `messages`, and heartbeats its `runs` row.
 * At most one run per conversation is `running` (a partial unique index decides races).
 */
export function createRunManager(options: {
  database: DatabaseHandle
  config: Config
  devboxes: DevboxRuntime
  store: EventStore
  settings: RunSettings
}) {
  const { database, config, devboxes, store, settings } = options
  const db = database.db
  const instanceId = randomUUID()
  const active = new Map<string, ActiveRun>()
  let halted = false
  let timer: ReturnType<typeof setInterval> | undefined
  let ticking: Promise<void> = Promise.resolve()
  let stopListening: (() => Promise<void>) | undefined

  // Conversations of one application share its dev box: their commits must not overlap (git lock).
  const checkpoints = new Map<string, Promise<unknown>>()
  const checkpoint = (applicationId: string, commit: () => Promise<unknown>) => {
    const previous = checkpoints.get(applicationId) ?? Promise.resolve()
    const next = previous.then(commit).catch((error: unknown) => {
      console.error('[runs] checkpoint failed:', error)
    })
    checkpoints.set(applicationId, next)
    void next.finally(() => {
      if (checkpoints.get(applicationId) === next) checkpoints.delete(applicationId)
    })
    return next
  }

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

  const claimConversation = async (conversationId: string, runId: string, model: string) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await db.insert(runs).values({
          id: runId,
          conversationId,
          status: 'running',
          model,
          ownerInstance: instanceId,
        })
        return
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

  const closing = { database, store }
  const emit = (conversationId: string, runId: string, chunk: StreamChunk) =>
    emitSafely(store, { id: runId, conversationId }, chunk)

  const execute = async (
    run: ActiveRun,
    input: StartRunInput,
    model: ReturnType<typeof languageModelFor>,
    history: ModelMessage[],
  ) => {
    const { conversation } = input
    const conversationId = conversation.id
    let sawFinish = false
    let status: Exclude<RunStatus, 'running'> = 'failed'
    let errorText: string | undefined
    const emitError = (message: string) =>
      emit(conversationId, run.id, {
        type: 'data-error',
        data: { error: message, errorType: 'internal' },
      })
    try {
      const isBuilder = conversation.kind === 'builder' && conversation.applicationId !== null
      // Right after a restart the box may still be opening: the run waits for it.
      const box = isBuilder ? await devboxes.whenReady(conversation.applicationId ?? '') : undefined
      if (isBuilder && !box) {
        throw new AppError(
          409,
          'conflict',
          'The dev box of this application is not ready yet. Wait for the preview, then retry.',
        )
      }
      const result = await runAgent({
        model,
        modelId: input.model,
        contextWindow: contextWindowOf(input.model),
        system: isBuilder
          ? buildSystemPrompt({ appName: input.appName })
          : explorationSystemPrompt(),
        messages: history,
        ...(box ? { toolContext: { devbox: box, webSearch: config.webSearch } } : {}),
        abortSignal: run.controller.signal,
        maxRetries: settings.maxRetries,
        onChunk: (chunk) => {
          if (halted) throw new Error('The server process stopped')
          if (chunk.type === 'finish') {
            sawFinish = true
            // The browser now shows the run as done: a message sent during the history write and
            // the checkpoint waits for them instead of being refused.
            run.closing = true
          }
          // On shutdown the interrupt is reported as a restart error instead (closeRun).
          if ((run.shuttingDown || run.openingFailed) && chunk.type === 'data-error') return
          return store.append(conversationId, run.id, forStorage(chunk))
        },
        takeStagedMessages: () =>
          halted ? Promise.resolve([]) : takeStagedMessages({ db, store }, conversationId, run.id),
      })
      if (halted) return
      // A run whose user message could not be stored leaves the history as it was, uncommitted.
      if (!run.openingFailed) await replaceHistory(db, conversationId, result.messages)
      if (box && !run.openingFailed) {
        const firstLine = (input.userMessage?.text ?? 'Continue').split('\n')[0] ?? ''
        const message = cutText(firstLine, 72)
        await checkpoint(conversation.applicationId ?? '', () =>
          box.checkpoint(message || 'Checkpoint'),
        )
      }
      if (result.error?.errorType === 'interrupt') status = 'interrupted'
      else status = result.error ? 'failed' : 'finished'
      errorText = result.error?.message
    } catch (error) {
      if (halted) return
      errorText = error instanceof AppError ? error.message : 'The agent run failed unexpectedly.'
      if (!(error instanceof AppError)) console.error('[runs] run failed:', error)
      emitError(errorText)
    }
    run.closing = true
    if (run.openingFailed) {
      status = 'failed'
      errorText = OPENING_FAILED_MESSAGE
      emitError(OPENING_FAILED_MESSAGE)
    } else if (run.shuttingDown) {
      status = 'failed'
      errorText = RESTART_ERROR_MESSAGE
      emitError(RESTART_ERROR_MESSAGE)
    }
    await closeRun(closing, run, { status, sawFinish, error: errorText })
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

  return {
    instanceId,

    /** claude-haiku-4-5 when its provider is configured, else the first model that can run. */
    defaultModel: (): string => pickDefaultModel(listModels(config)) ?? DEMO_MODEL_ID,

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

    /** Stops the process's runs; each ends with the retryable restart error. */
    stop: async () => {
      clearInterval(timer)
      await ticking
      await stopListening?.()
      const stopping = [...active.values()]
      for (const run of stopping) {
        run.shuttingDown = true
        run.controller.abort()
      }
      await Promise.allSettled(stopping.map((run) => run.done))
    },

    /** Stops as a crashed process would: runs stay `running` and nothing more is written. */
    halt: async () => {
      halted = true
      clearInterval(timer)
      await ticking
      await stopListening?.()
      const stopping = [...active.values()]
      for (const run of stopping) run.controller.abort()
      await Promise.allSettled(stopping.map((run) => run.done))
    },

    /**
     * Starts a run: claims the conversation (409 while another run is active) and executes it in
     * the background. The provider call starts while the user message is being stored; this
     * resolves once it is stored, with the conversation as the run left it.
     */
    startRun: async (
      input: StartRunInput,
    ): Promise<{ runId: string; conversation: ConversationRecord }> => {
      const model = languageModelFor(input.model)
      const conversationId = input.conversation.id
      const runId = randomUUID()
      await claimConversation(conversationId, runId, input.model)
      let opened: Awaited<ReturnType<typeof openRun>>
      try {
        opened = await openRun({ database, store }, { id: runId, conversationId }, input)
      } catch (error) {
        await db
          .update(runs)
          .set({ status: 'failed', error: OPENING_FAILED_MESSAGE, finishedAt: sql`now()` })
          .where(eq(runs.id, runId))
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
      }
      run.done = execute(run, input, model, opened.history)
        .catch((error: unknown) => console.error('[runs] closing a run failed:', error))
        .finally(() => {
          if (active.get(conversationId) === run) active.delete(conversationId)
        })
      active.set(conversationId, run)
      try {
        return { runId, conversation: await opened.stored }
      } catch (error) {
        run.openingFailed = true
        run.controller.abort()
        await run.done
        throw error
      }
    },

    /** Aborts the conversation's run here, or asks the process running it; false when idle. */
    interrupt: async (conversationId: string): Promise<boolean> => {
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

    /** Resolves when the conversation's run in this process (if any) has closed. */
    settled: async (conversationId: string) => {
      await active.get(conversationId)?.done
    },

    /** Waits (bounded) for an interrupted run of this process to finish closing. */
    settleInterrupted: async (conversationId: string, timeoutMs = 5000) => {
      const run = active.get(conversationId)
      if (!run?.controller.signal.aborted) return
      await Promise.race([run.done, new Promise((resolve) => setTimeout(resolve, timeoutMs))])
    },

    activeRunCount: () => active.size,
  }
}
