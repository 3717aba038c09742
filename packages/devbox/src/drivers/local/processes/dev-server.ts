import type { Devbox } from '../../../devbox-driver.ts'
import { createDevServerState, type DevServerInput } from './dev-server-state.ts'
import { setDevServerEnvironment } from './set-dev-server-environment.ts'
import { startDevServer } from './start-dev-server.ts'
import { stopDevServer } from './stop-dev-server.ts'

export type DevServer = Devbox['devServer'] & {
  logs: () => string
  /** Process group id of the running server. */
  processGroupId: () => number | undefined
}

/**
 * Runs `npm run dev` in the workspace (in the sandbox) on a free port. An unexpected exit is
 * answered with a restart after a growing delay; each one is counted in `restarts()`.
 */
export function createDevServer(input: DevServerInput): DevServer {
  const state = createDevServerState(input)
  return {
    start: () => startDevServer(state),
    stop: () => stopDevServer(state),
    setEnvironment: (env) => setDevServerEnvironment(state, env),
    status: () => state.status,
    // Not while a stop is under way: the dying server would answer the preview with 502s (a
    // restore of the preview's data stops it); the preview waits for the next start instead.
    target: () =>
      state.status === 'running' && state.wanted === 'running' && state.port !== undefined
        ? state.sandbox.devServerTarget(state.port)
        : undefined,
    // Commands share the box's network: the server's own port on loopback, confined or not.
    urlInside: () =>
      state.status === 'running' && state.port !== undefined
        ? `http://127.0.0.1:${state.port}`
        : undefined,
    restarts: () => state.restarts,
    logs: () => state.logs,
    processGroupId: () => state.child?.pid,
  }
}
