import type { AgentChunk } from '@sprout/agent/agent-chunk.ts'
import type { createLanguageModel } from '@sprout/agent/providers/create-language-model.ts'
import { runAgent } from '@sprout/agent/run-agent.ts'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import type { RunStatus, StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import type { ModelMessage } from 'ai'
import { checksSettled, latestCheck } from '../checks/service.ts'
import { AppError, conflict } from '../http/app-error.ts'
import {
  commitPendingHandEdits,
  recordRunVersion,
  systemWithRunNotes,
} from '../versions/service.ts'
import { type CheckedRun, checkAfterRun } from './check-after-run.ts'
import { closeRun, emitSafely, RESTART_ERROR_MESSAGE } from './close-run.ts'
import { replaceHistory } from './conversation-records.ts'
import { withImageReferences } from './history-images.ts'
import { createChunkRedactor } from './redact-chunks.ts'
import { redactHistory } from './redact-history.ts'
import { runToolContext } from './run-tool-context.ts'
import type { ActiveRun, RunEnvironment, StartRunInput } from './run-types.ts'
import { takeStagedMessages } from './staged-messages.ts'

export const OPENING_FAILED_MESSAGE = 'The run could not start.'

/** Anthropic and others attach provider metadata to chunks; the chat has no use for it. */
function forStorage(chunk: AgentChunk): StreamChunk {
  if (!('providerMetadata' in chunk)) return chunk as StreamChunk
  const { providerMetadata: _dropped, ...rest } = chunk
  return rest as StreamChunk
}

/** The system prompt, with what changed outside the agent since its last run (run-notes.ts). */
async function systemOfRun(
  database: DatabaseHandle,
  input: StartRunInput,
  box: Devbox | undefined,
  applicationId: string,
): Promise<string> {
  const system = typeof input.system === 'string' ? input.system : input.system(box)
  // Hand edits not yet committed become their version first, and their note is in this run's.
  if (box) {
    await commitPendingHandEdits({ db: database.db, box }, applicationId).catch(
      (error: unknown) => {
        console.error('[runs] the hand edits could not be committed:', error)
      },
    )
  }
  return box ? systemWithRunNotes(database.db, applicationId, system) : system
}

/** The run's commit becomes the app's next version (docs/product/versions.md "History"). */
function checkpointRun(
  environment: RunEnvironment,
  run: ActiveRun,
  input: StartRunInput,
  box: Devbox,
): Promise<unknown> {
  const applicationId = input.conversation.applicationId ?? ''
  // A repair's version is titled by what it fixes, not by the problems it was sent.
  const text = input.repairOf?.title ?? input.userMessage?.text ?? 'Continue'
  const firstLine = text.split('\n')[0] ?? ''
  const message = cutText(firstLine, 72)
  return environment.checkpoint(applicationId, () =>
    recordRunVersion(
      { db: environment.database.db, box },
      {
        applicationId,
        title: message || 'Checkpoint',
        runId: run.id,
        conversationId: run.conversationId,
        authorId: input.userId ?? null,
      },
    ),
  )
}

/**
 * Whether the app's code was left unchecked: its last check was stopped (Escape during it, a
 * server restart). Then a run is checked even if it changed no file, so the code a conversation's
 * last run leaves is always checked (docs/product/checks.md "The check").
 */
async function lastCheckStopped(environment: RunEnvironment, applicationId: string) {
  // A check under way (the previous run's) ends first: its result decides.
  await checksSettled(applicationId)
  return (await latestCheck(environment.database.db, applicationId))?.state === 'interrupted'
}

/**
 * Runs the agent for a claimed, opened run: its chunks go to the event store as they come, the
 * history is replaced and the box checkpointed when it ends, and the run is closed whatever
 * happened (docs/architecture/agent-loop.md "Runs on the server"). A run that changed files is
 * then checked; answers the repair turn to start after it, if any (docs/product/checks.md).
 */
export async function executeRun(
  environment: RunEnvironment,
  run: ActiveRun,
  input: StartRunInput & { contextWindow: number },
  model: ReturnType<typeof createLanguageModel>,
  history: ModelMessage[],
): Promise<StartRunInput | undefined> {
  const { database, devboxes, store, settings, isHalted } = environment
  const { conversation } = input
  const conversationId = conversation.id
  const startedAt = new Date()
  let checked: Omit<CheckedRun, 'status'> | undefined
  let checkable: Omit<CheckedRun, 'status'> | undefined
  let sawFinish = false
  let status: Exclude<RunStatus, 'running'> = 'failed'
  let errorText: string | undefined
  const emitError = (message: string) =>
    emitSafely(store, run, { type: 'data-error', data: { error: message, errorType: 'internal' } })
  try {
    const isBuilder = conversation.kind === 'builder' && conversation.applicationId !== null
    // Right after a restart the box may still be opening: the run waits for it.
    const box = isBuilder ? await devboxes.whenReady(conversation.applicationId ?? '') : undefined
    if (isBuilder && !box) {
      throw conflict(
        'The dev box of this application is not ready yet. Wait for the preview, then retry.',
      )
    }
    const applicationId = conversation.applicationId ?? ''
    const toolContext = box
      ? await runToolContext(environment, { run, input, model, box, applicationId, startedAt })
      : undefined
    // The stream, the history and the error stored are redacted (redact-chunks.ts).
    const redact = (text: string) => toolContext?.secrets()?.redactor.redact(text) ?? text
    const redactChunk = createChunkRedactor(() => toolContext?.secrets()?.redactor)
    const result = await runAgent({
      model,
      modelId: input.model,
      contextWindow: input.contextWindow,
      system: await systemOfRun(database, input, box, applicationId),
      messages: history,
      ...(toolContext ? { toolContext: toolContext.context } : {}),
      abortSignal: run.controller.signal,
      maxRetries: settings.maxRetries,
      onChunk: (chunk) => {
        if (isHalted()) throw new Error('The server process stopped')
        if (chunk.type === 'finish') {
          sawFinish = true
          // The browser now shows the run as done: a message sent during the history write and
          // the checkpoint waits for them instead of being refused.
          run.closing = true
        }
        // On shutdown the interrupt is reported as a restart error instead (closeRun).
        if ((run.shuttingDown || run.openingFailed) && chunk.type === 'data-error') return
        let waiting: Promise<void> | undefined
        for (const stored of redactChunk(forStorage(chunk))) {
          waiting = store.append(conversationId, run.id, stored) ?? waiting
        }
        return waiting
      },
      takeStagedMessages: () =>
        isHalted()
          ? Promise.resolve([])
          : takeStagedMessages({ db: database.db, store }, conversationId, run.id),
    })
    if (isHalted()) return undefined
    // A run whose user message could not be stored leaves the history as it was, uncommitted.
    if ((await run.opened) && !run.openingFailed) {
      const history = withImageReferences(redactHistory(result.messages, redact))
      await replaceHistory(database.db, conversationId, history)
    }
    if (box && !run.openingFailed) {
      const version = await checkpointRun(environment, run, input, box)
      // A repair turn ends with a check of its own, whatever it changed (docs/product/checks.md).
      const checks = version !== undefined || input.repairOf !== undefined
      if (environment.config.checkAfterRuns) checkable = { box, applicationId, startedAt }
      if (checks) checked = checkable
    }
    if (result.error?.errorType === 'interrupt') status = 'interrupted'
    else status = result.error ? 'failed' : 'finished'
    errorText = result.error && redact(result.error.message)
  } catch (error) {
    if (isHalted()) return undefined
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
  await closeRun({ database, store }, run, { status, sawFinish, error: errorText })
  run.markClosed()
  if (!checkable || run.openingFailed || run.shuttingDown || isHalted()) return undefined
  if (!checked && (await lastCheckStopped(environment, checkable.applicationId))) {
    checked = checkable
  }
  if (!checked || run.shuttingDown || isHalted()) return undefined
  // Escape stops the agent, not the check of the code it left (docs/product/checks.md): the
  // check gets a controller of its own, which an Escape during the check still reaches.
  if (run.controller.signal.aborted) run.controller = new AbortController()
  return checkAfterRun(environment, run, input, { ...checked, status })
}
