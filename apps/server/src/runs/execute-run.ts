import type { AgentChunk } from '@sprout/agent/agent-chunk.ts'
import type { createLanguageModel } from '@sprout/agent/providers/create-language-model.ts'
import { runAgent } from '@sprout/agent/run-agent.ts'
import { modelGuideAnswerer } from '@sprout/agent/tools/integration-guide.ts'
import type { IntegrationGuidesAccess } from '@sprout/agent/tools/tool-context.ts'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import { DEMO_MODEL_ID } from '@sprout/protocol/models.ts'
import type { RunStatus, StreamChunk } from '@sprout/protocol/stream/stream-chunk.ts'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import type { ModelMessage } from 'ai'
import type { Config } from '../config/config.ts'
import type { DevboxRuntime } from '../devboxes/runtime/devbox-runtime.ts'
import { AppError, conflict } from '../http/app-error.ts'
import { createOrigins } from '../http/origins.ts'
import type { EventStore } from '../stream/event-store.ts'
import type { ApplicationSecrets, RunSecrets } from '../vault/service.ts'
import {
  commitPendingHandEdits,
  recordRunVersion,
  systemWithRunNotes,
} from '../versions/service.ts'
import { closeRun, emitSafely, RESTART_ERROR_MESSAGE } from './close-run.ts'
import { type ConversationRecord, replaceHistory } from './conversation-records.ts'
import { runErrorReports } from './run-error-reports.ts'
import type { RunSettings } from './run-settings.ts'
import { takeStagedMessages } from './staged-messages.ts'

export const OPENING_FAILED_MESSAGE = 'The run could not start.'

/** A text, or one that depends on the app's dev box (its pack type), known once the box is open. */
export type SystemPrompt = string | ((box: Devbox | undefined) => string)

export type StartRunInput = {
  conversation: ConversationRecord
  model: string
  /** The system prompt: the builder's or the exploration's, chosen by the caller. */
  system: SystemPrompt
  /** A new user message; without it the run continues the stored history (retry). */
  userMessage?: { text: string; clientId: string | undefined }
  /** Who sent it (or asked to continue): the author of the run's version. */
  userId?: string
}

export type ActiveRun = {
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
  /**
   * Settles once the opening writes are done (true) or failed (false). The history is replaced
   * only after them: a run that ends at once (a provider's 529) would otherwise race the user
   * message's own insert on PostgreSQL.
   */
  opened: Promise<boolean>
}

/** What a run executes with: this process's parts, and whether it was halted as if crashed. */
export type RunEnvironment = {
  database: DatabaseHandle
  config: Config
  devboxes: DevboxRuntime
  store: EventStore
  settings: RunSettings
  isHalted: () => boolean
  checkpoint: (applicationId: string, commit: () => Promise<unknown>) => Promise<unknown>
  /** The vault: secrets for the agent's commands, and their redaction; none in some tests. */
  secrets?: RunSecrets
}

/**
 * The vault's values reach the agent's commands as environment variables, and are redacted from
 * everything the tools return or stream (docs/product/vault.md "Where values go"). The latest
 * values are used, so a secret set during a run is there for the next command.
 */
function toolContextFor(
  box: Devbox,
  secrets: () => ApplicationSecrets | undefined,
  webSearch: Config['webSearch'],
  extras: {
    errorReports: ReturnType<typeof runErrorReports>
    integrationGuides: IntegrationGuidesAccess | undefined
  },
) {
  return {
    ...extras,
    devbox: {
      files: box.files,
      devServer: box.devServer,
      exec: (command: string, options: Parameters<Devbox['exec']>[1]) =>
        box.exec(command, { ...options, env: { ...secrets()?.env, ...options.env } }),
    },
    redact: (text: string) => secrets()?.redactor.redact(text) ?? text,
    redactStream: () =>
      secrets()?.redactor.stream() ?? { push: (text: string) => text, flush: () => '' },
    webSearch,
  }
}

/** A real model answers integration_guide from the guide (decision 019); the Demo model reads it. */
function guideAnswers(
  modelId: string,
  model: ReturnType<typeof createLanguageModel>,
  run: ActiveRun,
  settings: RunSettings,
): IntegrationGuidesAccess | undefined {
  if (modelId === DEMO_MODEL_ID) return undefined
  const options = { abortSignal: run.controller.signal, maxRetries: settings.maxRetries }
  return { answer: modelGuideAnswerer(model, options) }
}

/**
 * The app's secrets for a run, from the vault's copy: sending the message just read them and the
 * vault reloads on every change, so a second read and decryption (7 ms on PGlite, before the first
 * token) is spared. Read only when not loaded yet.
 */
async function secretsOfRun(environment: RunEnvironment, applicationId: string) {
  const { secrets } = environment
  if (!secrets) return undefined
  return secrets.current(applicationId) ?? (await secrets.load(applicationId))
}

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
    await commitPendingHandEdits(applicationId).catch((error: unknown) => {
      console.error('[runs] the hand edits could not be committed:', error)
    })
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
  const firstLine = (input.userMessage?.text ?? 'Continue').split('\n')[0] ?? ''
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
 * Runs the agent for a claimed, opened run: its chunks go to the event store as they come, the
 * history is replaced and the box checkpointed when it ends, and the run is closed whatever
 * happened (docs/architecture/agent-loop.md "Runs on the server").
 */
export async function executeRun(
  environment: RunEnvironment,
  run: ActiveRun,
  input: StartRunInput & { contextWindow: number },
  model: ReturnType<typeof createLanguageModel>,
  history: ModelMessage[],
): Promise<void> {
  const { database, devboxes, store, settings, isHalted } = environment
  const { conversation } = input
  const conversationId = conversation.id
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
    const loadedSecrets = box ? await secretsOfRun(environment, applicationId) : undefined
    const secrets = () => environment.secrets?.current(applicationId) ?? loadedSecrets
    const extras = {
      errorReports: runErrorReports({
        db: database.db,
        origins: createOrigins(environment.config),
        organizationId: conversation.organizationId,
        applicationId,
      }),
      integrationGuides: guideAnswers(input.model, model, run, settings),
    }
    const result = await runAgent({
      model,
      modelId: input.model,
      contextWindow: input.contextWindow,
      system: await systemOfRun(database, input, box, applicationId),
      messages: history,
      ...(box
        ? {
            toolContext: toolContextFor(box, secrets, environment.config.webSearch, extras),
          }
        : {}),
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
        const stored = forStorage(chunk)
        return store.append(
          conversationId,
          run.id,
          secrets()?.redactor.redactValue(stored) ?? stored,
        )
      },
      takeStagedMessages: () =>
        isHalted()
          ? Promise.resolve([])
          : takeStagedMessages({ db: database.db, store }, conversationId, run.id),
    })
    if (isHalted()) return
    // A run whose user message could not be stored leaves the history as it was, uncommitted.
    if ((await run.opened) && !run.openingFailed) {
      await replaceHistory(database.db, conversationId, result.messages)
    }
    if (box && !run.openingFailed) await checkpointRun(environment, run, input, box)
    if (result.error?.errorType === 'interrupt') status = 'interrupted'
    else status = result.error ? 'failed' : 'finished'
    errorText = result.error?.message
  } catch (error) {
    if (isHalted()) return
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
}
