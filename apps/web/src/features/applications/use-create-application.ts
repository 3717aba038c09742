import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import { createApplication, fetchEditorReady } from './application-api.ts'
import { applicationsQueryKey } from './application-queries.ts'
import {
  CREATE_FAILED_ALERT,
  CreateApplicationError,
  type CreateApplicationInput,
  type CreateProgress,
  runCreateApplication,
} from './create-application-flow.ts'
import { sendInitialMessage } from './send-initial-message.ts'

const steps = { create: createApplication, checkEditorReady: fetchEditorReady, sendInitialMessage }

export type CreateOutcome =
  | { status: 'created'; applicationId: string }
  /** It failed after the application was made; it is listed and may still become ready. */
  | { status: 'listed'; applicationId: string }
  | { status: 'failed' }
  /** The screen went away. */
  | { status: 'cancelled' }

/**
 * Runs the create flow with its progress messages; a failure shows its alert
 * (docs/product/error-texts.md).
 */
export function useCreateApplication() {
  const queryClient = useQueryClient()
  const [progress, setProgress] = useState<CreateProgress | undefined>()
  const controllerRef = useRef<AbortController | undefined>(undefined)

  useEffect(() => () => controllerRef.current?.abort(), [])

  const create = useCallback(
    async (input: CreateApplicationInput): Promise<CreateOutcome> => {
      const controller = new AbortController()
      controllerRef.current = controller
      try {
        const applicationId = await runCreateApplication(input, steps, {
          onProgress: setProgress,
          signal: controller.signal,
        })
        return { status: 'created', applicationId }
      } catch (error) {
        if (controller.signal.aborted) return { status: 'cancelled' }
        const failure = error instanceof CreateApplicationError ? error : undefined
        window.alert(failure?.alertMessage ?? CREATE_FAILED_ALERT)
        return failure?.isListed && failure.applicationId
          ? { status: 'listed', applicationId: failure.applicationId }
          : { status: 'failed' }
      } finally {
        // Also after a failure: the application may exist although its editor never came up.
        void queryClient.invalidateQueries({ queryKey: applicationsQueryKey })
        if (!controller.signal.aborted) setProgress(undefined)
      }
    },
    [queryClient],
  )

  return { create, progress, isCreating: progress !== undefined }
}
