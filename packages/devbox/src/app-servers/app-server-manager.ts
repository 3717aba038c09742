import { silentLogger } from '../logger.ts'
import { type AppServerLease, acquireAppServer } from './acquire-app-server.ts'
import type { AppServerInstance } from './app-server-instance.ts'
import {
  type AppServerManagerOptions,
  type AppServerManagerState,
  appEntryOf,
} from './app-server-manager-state.ts'
import { type AppServerState, type AppServerStatus, appServerStatus } from './app-server-status.ts'
import { launchAppServer } from './launch-app-server.ts'
import { reloadAppServer } from './reload-app-server.ts'
import { closeAppServers, stopAppServer } from './stop-app-server.ts'
import { startIdleSweep, stopIdleAppServers } from './stop-idle.ts'
import { switchDeploy } from './switch-deploy.ts'

export type { AppServerLease, AppServerState }

export type AppServerManager = {
  /** The app's running server for one request (acquire-app-server.ts); `release` it when done. */
  acquire: (appId: string) => Promise<AppServerLease | undefined>
  /** Starts a new deploy's server beside the running one; the deploy switches to it after. */
  startCandidate: (appId: string, deployId: string) => Promise<AppServerInstance>
  /** New requests go to `instance`; the old one is drained and stopped (switch-deploy.ts). */
  switchTo: (appId: string, instance: AppServerInstance | undefined) => Promise<void>
  /** Replaces a running server by one with the app's new environment (a vault secret). */
  reload: (appId: string) => Promise<void>
  /** Stops the app's server (the application is deleted); the next request would start it. */
  stop: (appId: string) => Promise<void>
  status: (appId: string) => AppServerStatus
  /** The app's server output across its starts and restarts, the last 64 KB. */
  logs: (appId: string) => string
  /** Stops idle servers now (what the timer does every idleCheckMs). */
  stopIdle: () => Promise<void>
  /** Sprout is shutting down: every server is stopped; they start again on first request. */
  close: () => Promise<void>
}

/**
 * Production servers of deployed apps (docs/architecture/devbox.md "Production servers"): started
 * on first request, replaced by a new deploy's without failing a request (the old one drains),
 * restarted with a growing delay after crashes.
 */
export function createAppServerManager(options: AppServerManagerOptions): AppServerManager {
  const state: AppServerManagerState = {
    options,
    logger: options.logger ?? silentLogger,
    now: options.now ?? Date.now,
    entries: new Map(),
    inFlight: new Map(),
    closed: false,
    idleTimer: undefined,
  }
  state.idleTimer = startIdleSweep(state)
  return {
    acquire: (appId) => acquireAppServer(state, appId),
    startCandidate: (appId, deployId) => launchAppServer(state, appEntryOf(state, appId), deployId),
    switchTo: (appId, instance) => switchDeploy(state, appId, instance),
    reload: (appId) => reloadAppServer(state, appId),
    stop: (appId) => stopAppServer(state, appId),
    status: (appId) => appServerStatus(state, appId),
    logs: (appId) => state.entries.get(appId)?.logs ?? '',
    stopIdle: () => stopIdleAppServers(state),
    close: () => closeAppServers(state),
  }
}
