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

/**
 * Runs the create flow with its progress messages; a failure shows the SPEC §8 alert. Resolves
 * with the new application's id, or undefined when it failed (or the screen went away).
 */
export function useCreateApplication() {
  const queryClient = useQueryClient()
  const [progress, setProgress] = useState<CreateProgress | undefined>()
  const controllerRef = useRef<AbortController | undefined>(undefined)

  useEffect(() => () => controllerRef.current?.abort(), [])

  const create = useCallback(
    async (input: CreateApplicationInput): Promise<string | undefined> => {
      const controller = new AbortController()
      controllerRef.current = controller
      try {
        return await runCreateApplication(input, steps, {
          onProgress: setProgress,
          signal: controller.signal,
        })
      } catch (error) {
        if (controller.signal.aborted) return undefined
        window.alert(
          error instanceof CreateApplicationError ? error.alertMessage : CREATE_FAILED_ALERT,
        )
        return undefined
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
