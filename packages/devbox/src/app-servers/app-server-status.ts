import type { AppServerManagerState } from './app-server-manager-state.ts'

export type AppServerState = 'stopped' | 'starting' | 'running' | 'restarting'

export type AppServerStatus = { state: AppServerState; instanceId?: string; restarts: number }

/** Whether the app's server runs, starts or waits for a restart, and how often it restarted. */
export function appServerStatus(state: AppServerManagerState, appId: string): AppServerStatus {
  const entry = state.entries.get(appId)
  if (!entry) return { state: 'stopped', restarts: 0 }
  const serverState: AppServerState = entry.current
    ? 'running'
    : entry.restartDue
      ? 'restarting'
      : entry.starting
        ? 'starting'
        : 'stopped'
  return { state: serverState, instanceId: entry.current?.id, restarts: entry.restarts }
}
