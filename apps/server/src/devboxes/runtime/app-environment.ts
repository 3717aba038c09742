import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import type { DevboxRuntimeState } from './devbox-runtime-state.ts'

/** The application's environment; an unreadable vault gives none, logged. */
export async function environmentFor(
  { appProcesses, logger }: DevboxRuntimeState,
  applicationId: string,
): Promise<Record<string, string>> {
  try {
    return await appProcesses.environmentFor(applicationId)
  } catch (error) {
    logger.error('The vault could not be read for an app', {
      applicationId,
      error: (error as Error).message,
    })
    return {}
  }
}

/** Gives a box's dev server the application's environment (docs/product/vault.md). */
export async function applyEnvironment(
  state: DevboxRuntimeState,
  applicationId: string,
  box: Devbox,
) {
  // The same values (none, for a new app) leave the dev server running as it is.
  await box.devServer.setEnvironment?.(await environmentFor(state, applicationId))
}

/**
 * The application's environment changed (a secret set or deleted, a key rotated): its dev server
 * restarts with the new values and its production server is replaced by one that has them,
 * without downtime.
 */
export async function environmentChanged(state: DevboxRuntimeState, applicationId: string) {
  const box = state.boxes.get(applicationId)
  await Promise.all([
    box ? applyEnvironment(state, applicationId, box) : undefined,
    state.appServers?.reload(applicationId),
  ])
}
