import type { CreateApplicationRequest } from '@sprout/protocol/api/applications.ts'
import type { EditorReadiness } from './application-api.ts'
import type { InitialMessage } from './send-initial-message.ts'
import {
  EditorFailedError,
  EditorReadyTimeoutError,
  waitForEditorReady,
} from './wait-for-editor-ready.ts'

// docs/product/error-texts.md "Alerts".
export const CREATE_FAILED_ALERT = 'Failed to create application. Please try again.'
export const EDITOR_TIMEOUT_ALERT = 'Editor service took too long to become ready'

export const createProgressMessages = {
  creating: 'Creating application...',
  startingEditor: 'Starting the editor...',
  sendingMessage: 'Sending your first message...',
  opening: 'Opening the editor...',
} as const

/** A burst of new apps: the box waits its turn to start (docs/architecture/devbox.md "Starts at once"). */
export function waitingForDevbox(position: number) {
  return `Waiting for a dev box: ${position === 0 ? 'you are next' : `${position} ahead of you`}...` as const
}

export type CreateProgress =
  | (typeof createProgressMessages)[keyof typeof createProgressMessages]
  | ReturnType<typeof waitingForDevbox>

/** Creating failed; `alertMessage` is the alert to show, `applicationId` set if created. */
export class CreateApplicationError extends Error {
  override name = 'CreateApplicationError'
  readonly alertMessage: string
  readonly applicationId: string | undefined

  constructor(alertMessage: string, applicationId: string | undefined, cause: unknown) {
    super(alertMessage, { cause })
    this.alertMessage = alertMessage
    this.applicationId = applicationId
  }

  /**
   * The application exists and may still work (its editor was slow, or only the first message
   * failed): it is in the list now, so creating again would make a second one.
   */
  get isListed(): boolean {
    return this.applicationId !== undefined && !(this.cause instanceof EditorFailedError)
  }
}

export type CreateApplicationSteps = {
  create: (input: CreateApplicationRequest) => Promise<string>
  checkEditorReady: (applicationId: string, signal?: AbortSignal) => Promise<EditorReadiness>
  sendInitialMessage: (message: InitialMessage) => Promise<void>
  /** Polling options for tests; the docs/product/limits.md defaults otherwise. */
  wait?: { maxPolls?: number; intervalMs?: number }
}

export type CreateApplicationInput = { name: string; description: string; model: string }

/**
 * docs/product/applications.md "Create application": create it, wait for its editor (once a second,
 * up to 60 tries), send the description as the first message. Returns the id; the caller then opens
 * the editor.
 */
export async function runCreateApplication(
  input: CreateApplicationInput,
  steps: CreateApplicationSteps,
  options: { onProgress?: (progress: CreateProgress) => void; signal?: AbortSignal } = {},
): Promise<string> {
  const { onProgress, signal } = options
  const message = input.description.trim()
  let applicationId: string | undefined
  try {
    onProgress?.(createProgressMessages.creating)
    applicationId = await steps.create({
      name: input.name.trim() || undefined,
      initial_prompt: message,
      model: input.model,
    })
    const id = applicationId
    onProgress?.(createProgressMessages.startingEditor)
    await waitForEditorReady({
      check: (pollSignal) => steps.checkEditorReady(id, pollSignal),
      signal,
      onQueued: (position) => onProgress?.(waitingForDevbox(position)),
      ...steps.wait,
    })
    onProgress?.(createProgressMessages.sendingMessage)
    await steps.sendInitialMessage({ applicationId: id, message, model: input.model })
    onProgress?.(createProgressMessages.opening)
    return id
  } catch (error) {
    if (signal?.aborted) throw error
    const alertMessage =
      error instanceof EditorReadyTimeoutError ? EDITOR_TIMEOUT_ALERT : CREATE_FAILED_ALERT
    throw new CreateApplicationError(alertMessage, applicationId, error)
  }
}
