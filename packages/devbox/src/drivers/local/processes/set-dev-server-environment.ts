import { createSecretRedactor } from '@sprout/protocol/text/redact-secrets.ts'
import type { DevServerState } from './dev-server-state.ts'
import {
  onlyLiveVariablesDiffer,
  readsLiveEnvironment,
  writeLiveEnvironment,
} from './live-environment.ts'
import { startDevServer } from './start-dev-server.ts'
import { stopDevServer } from './stop-dev-server.ts'

/** Changes apply one after another, so two quick vault changes never interleave a restart. */
export function setDevServerEnvironment(
  state: DevServerState,
  env: Record<string, string>,
): Promise<void> {
  state.applying = state.applying.catch(() => undefined).then(() => applyEnvironment(state, env))
  return state.applying
}

async function applyEnvironment(state: DevServerState, env: Record<string, string>) {
  if (sameEnvironment(env, state.extraEnv)) return
  const previous = state.extraEnv
  state.extraEnv = { ...env }
  state.redactor = createSecretRedactor(state.extraEnv)
  const file = state.sandbox.environmentFile
  const written =
    file !== undefined &&
    (await writeLiveEnvironment(file.host, state.extraEnv, state.sandbox.owner).then(
      () => true,
      (error: Error) => {
        state.logger.warn('The dev server environment file could not be written', {
          boxId: state.boxId,
          error: error.message,
        })
        return false
      },
    ))
  if (state.wanted !== 'running') return
  // Only Sprout's own variables changed (a box claimed from the pool gets its app's
  // token and DSN): the running server reads them from the file, no restart.
  if (
    written &&
    onlyLiveVariablesDiffer(previous, state.extraEnv) &&
    (await readsLiveEnvironment(state.workspacePath))
  ) {
    return
  }
  // A process's environment is fixed at its start: the server starts again, on the same
  // port, and the preview's page reconnects and reloads by itself.
  await stopDevServer(state)
  await startDevServer(state)
}

function sameEnvironment(first: Record<string, string>, second: Record<string, string>): boolean {
  const keys = Object.keys(first)
  return (
    keys.length === Object.keys(second).length && keys.every((key) => first[key] === second[key])
  )
}
