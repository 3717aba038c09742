import { cutText } from '@sprout/protocol/text/cut-text.ts'
import type { DevboxLogger } from '../logger.ts'
import type { AppServerInstance, StartAppServer } from './app-server-instance.ts'
import { createRestartBackoff } from './restart-backoff.ts'

const keptLogCharacters = 64 * 1024

export type AppServerManagerOptions = {
  deploysDir: string
  startAppServer: StartAppServer
  /** APPS_IDLE_MINUTES in ms: a server without a request for that long is stopped; 0: never. */
  idleMs: number
  /** How often idleness is checked; defaults to a quarter of idleMs, at most 30 s. */
  idleCheckMs?: number
  healthTimeoutMs?: number
  /** How long a replaced server may finish its requests before it is stopped anyway. */
  drainTimeoutMs?: number
  logger?: DevboxLogger
  now?: () => number
  /** The app's extra environment (its vault secrets), read at every start. */
  environmentFor?: (appId: string) => Promise<Record<string, string>>
}

/** One app's production server as the manager tracks it. */
export type AppEntry = {
  appId: string
  current?: AppServerInstance
  starting?: Promise<AppServerInstance | undefined>
  /** Set while a crashed server waits for its restart; requests wait for it too. */
  restartDue?: Promise<void>
  cancelRestart?: () => void
  /** Bumped by switches and stops: a start begun before it is stale when it ends. */
  generation: number
  lastUsedAt: number
  restarts: number
  backoff: ReturnType<typeof createRestartBackoff>
  logs: string
}

/** What every verb of the app-server manager shares (app-server-manager.ts builds it). */
export type AppServerManagerState = {
  options: AppServerManagerOptions
  logger: DevboxLogger
  now: () => number
  entries: Map<string, AppEntry>
  /** Requests each instance is answering; a replaced instance is drained of them. */
  inFlight: Map<AppServerInstance, number>
  /** Set by `close`: nothing starts or restarts after it. */
  closed: boolean
  idleTimer: ReturnType<typeof setInterval> | undefined
}

export function appEntryOf(state: AppServerManagerState, appId: string): AppEntry {
  let entry = state.entries.get(appId)
  if (!entry) {
    entry = {
      appId,
      generation: 0,
      lastUsedAt: state.now(),
      restarts: 0,
      backoff: createRestartBackoff(state.now),
      logs: '',
    }
    state.entries.set(appId, entry)
  }
  return entry
}

export function appendAppLog(entry: AppEntry, text: string) {
  entry.logs = cutText(entry.logs + text, keptLogCharacters, 'end')
}

export function isAppIdle(state: AppServerManagerState, entry: AppEntry) {
  return state.options.idleMs > 0 && state.now() - entry.lastUsedAt >= state.options.idleMs
}
