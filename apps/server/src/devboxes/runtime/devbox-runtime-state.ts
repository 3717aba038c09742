import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Database } from '@sprout/db/database.ts'
import type { AppServerManager } from '@sprout/devbox/app-servers/app-server-manager.ts'
import type { Devbox, DevboxDriver, PackType } from '@sprout/devbox/devbox-driver.ts'
import type { DevboxLogger } from '@sprout/devbox/logger.ts'
import type { DevboxPool } from '@sprout/devbox/pool.ts'
import type { StartQueue } from '@sprout/devbox/start-queue.ts'
import type { DevboxConfinement } from '@sprout/protocol/api/applications.ts'
import type { createUsageTracker } from './usage-tracker.ts'

export type DevboxState = 'provisioning' | 'ready' | 'failed' | 'missing'

/**
 * What an application's processes (its dev server, its production servers) receive from the
 * rest of Sprout; app-runtime/ makes it (docs/architecture/devbox.md "Error reports").
 */
export type AppProcessSupport = {
  /** The environment of the application's processes: the vault's values and Sprout's own. */
  environmentFor: (applicationId: string) => Promise<Record<string, string>>
  /** Answers a request to `http://sprout.internal` from one of the application's boxes. */
  handleInternalRequest: (
    applicationId: string | undefined,
    request: IncomingMessage,
    response: ServerResponse,
  ) => void | Promise<void>
}

/** What the app's processes receive, made once the boxes' confinement is known. */
export type AppProcessSupportFor = (confinement: DevboxConfinement) => AppProcessSupport

/** The process's boxes and the work under way on them, shared by the runtime's verbs. */
export type DevboxRuntimeState = {
  db: Database
  driver: DevboxDriver
  pool: DevboxPool
  logger: DevboxLogger
  appProcesses: AppProcessSupport
  appServers: AppServerManager | undefined
  idleMs: number
  usage: ReturnType<typeof createUsageTracker>
  boxes: Map<string, Devbox>
  states: Map<string, DevboxState>
  /** Boxes recorded before a restart and not opened yet: opened on first use (ensureOpen). */
  unopened: Map<string, { id: string; packType: PackType }>
  opening: Map<string, Promise<Devbox | undefined>>
  /** The server's box starts (provisions, reopens), admitted a few at a time. */
  starts: StartQueue
  /** A start that failed is tried `attempts` times in all, waiting baseDelayMs, then twice that… */
  startRetry: { attempts: number; baseDelayMs: number }
  /** Failed boxes whose failure the builder was told: its next ask starts them again. */
  failureReported: Set<string>
  /** Set by `stop`: starts still waiting in the queue are left for the next start-up. */
  stopping: boolean
  /** Applications whose dev server was stopped for idleness, until it has started again. */
  suspended: Set<string>
  suspending: Map<string, Promise<void>>
  waking: Map<string, Promise<void>>
  /** Background work, awaited by `stop`. */
  pending: Set<Promise<unknown>>
  /** An application's box work under way (built, taking its environment): destroy waits for it. */
  preparing: Map<string, Promise<unknown>>
  poolStarted: Promise<void>
  /** Several instances: a box is known from its row when this instance takes its lease (decision 033). */
  boxesByLease: boolean
  sweepTimer: NodeJS.Timeout | undefined
  /** Writes this instance's uses to the boxes' rows (record-last-use.ts). */
  recordTimer: NodeJS.Timeout | undefined
}

/**
 * Background work on an application's box: kept in `pending`, and in `preparing` so a destroy of
 * the box waits for it instead of deleting the workspace under it.
 */
export function trackFor<T>(
  state: DevboxRuntimeState,
  applicationId: string,
  work: Promise<T>,
): Promise<T> {
  const all = Promise.allSettled([state.preparing.get(applicationId), work])
  state.preparing.set(applicationId, all)
  void all.then(() => {
    if (state.preparing.get(applicationId) === all) state.preparing.delete(applicationId)
  })
  return track(state, work)
}

/** Keeps background work in `pending` until it settles. */
export function track<T>(state: DevboxRuntimeState, work: Promise<T>): Promise<T> {
  state.pending.add(work)
  void work.finally(() => state.pending.delete(work)).catch(() => undefined)
  return work
}
