import { randomUUID } from 'node:crypto'
import { createLanguageModel } from '@sprout/agent/providers/create-language-model.ts'
import { ModelUnavailableError } from '@sprout/agent/providers/model-unavailable-error.ts'
import { AppError, badRequest } from '../http/app-error.ts'
import { imagesDirOf } from '../images/service.ts'
import { listModels } from '../models/service.ts'
import { claimConversation } from './claim-conversation.ts'
import { closeRun, emitSafely } from './close-run.ts'
import type { ConversationRecord } from './conversation-records.ts'
import { executeRun, OPENING_FAILED_MESSAGE } from './execute-run.ts'
import { openRun } from './open-run.ts'
import type { RunManagerState } from './run-manager-state.ts'
import type { ActiveRun, StartRunInput } from './run-types.ts'

const DEFAULT_CONTEXT_WINDOW = 128_000

function languageModelFor(state: RunManagerState, modelId: string) {
  try {
    return createLanguageModel(modelId, state.config.providers)
  } catch (error) {
    if (error instanceof ModelUnavailableError) throw badRequest(error.message)
    throw error
  }
}

/** Opens the claimed run; a failed read or append ends it as one whose opening failed. */
async function openClaimedRun(
  state: RunManagerState,
  reference: { id: string; conversationId: string },
  input: StartRunInput,
) {
  try {
    return await openRun(state.closing, reference, {
      ...input,
      imagesDir: imagesDirOf(state.config),
    })
  } catch (error) {
    // Its error and `data-run failed` go to the stream, the row is closed; the POST fails.
    emitSafely(state.store, reference, {
      type: 'data-error',
      data: { error: OPENING_FAILED_MESSAGE, errorType: 'internal' },
    })
    await closeRun(state.closing, reference, {
      status: 'failed',
      sawFinish: false,
      error: OPENING_FAILED_MESSAGE,
    })
    throw error
  }
}

/**
 * The repair turn after a check (docs/product/checks.md "One repair"): a run like any other; a
 * message the user sent meanwhile has started its own run, and the repair is dropped (409).
 */
async function startRepair(state: RunManagerState, input: StartRunInput): Promise<void> {
  try {
    await startRun(state, input)
  } catch (error) {
    if (error instanceof AppError && error.status === 409) return
    console.error('[runs] the repair turn could not start:', error)
  }
}

/**
 * Claims the conversation (409 while another run is active) and executes the run in the
 * background; resolves once the user message is stored.
 */
export async function startRun(
  state: RunManagerState,
  input: StartRunInput,
): Promise<{ runId: string; conversation: ConversationRecord }> {
  const model = languageModelFor(state, input.model)
  const conversationId = input.conversation.id
  const runId = randomUUID()
  const conversation = await claimConversation(state, {
    conversationId,
    runId,
    model: input.model,
    withUserMessage: input.userMessage !== undefined,
    repairOf: input.repairOf?.runId ?? null,
  })
  const opened = await openClaimedRun(state, { id: runId, conversationId }, input)
  const closed = Promise.withResolvers<void>()
  const run: ActiveRun = {
    id: runId,
    conversationId,
    controller: new AbortController(),
    done: Promise.resolve(),
    shuttingDown: false,
    closing: false,
    closed: closed.promise,
    markClosed: () => closed.resolve(),
    openingFailed: false,
    opened: opened.stored.then(
      () => true,
      () => false,
    ),
  }
  const contextWindow =
    listModels(state.config).find((listed) => listed.model === input.model)?.contextWindow ??
    DEFAULT_CONTEXT_WINDOW
  // A running run keeps its app's dev server from idling (docs/architecture/devbox.md).
  const { applicationId, kind } = input.conversation
  const releaseBox =
    kind === 'builder' && applicationId ? state.devboxes.hold(applicationId) : undefined
  run.done = executeRun(state.environment, run, { ...input, contextWindow }, model, opened.history)
    .catch((error: unknown) => {
      console.error('[runs] closing a run failed:', error)
      return undefined
    })
    .then((repair) => {
      run.markClosed()
      releaseBox?.()
      if (state.active.get(conversationId) === run) state.active.delete(conversationId)
      if (repair && !state.halted) return startRepair(state, repair)
    })
  state.active.set(conversationId, run)
  try {
    await opened.stored
    return { runId, conversation }
  } catch (error) {
    run.openingFailed = true
    run.controller.abort()
    await run.done
    throw error
  }
}
