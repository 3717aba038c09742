import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Database } from '@sprout/db/database.ts'
import type { AppServerManager } from '@sprout/devbox/app-servers/app-server-manager.ts'
import type {
  Devbox,
  DevboxDriver,
  DevServerStatus,
  DevServerTarget,
  PackType,
} from '@sprout/devbox/devbox-driver.ts'
import type { DevboxLogger } from '@sprout/devbox/logger.ts'
import type { DevboxPool } from '@sprout/devbox/pool.ts'
import { createStartQueue, type StartQueue } from '@sprout/devbox/start-queue.ts'
import type { DevboxConfinement } from '@sprout/protocol/api/applications.ts'
import { environmentChanged, environmentFor } from './app-environment.ts'
import { attach } from './attach.ts'
import { adoptBox, releaseBox } from './box-ownership.ts'
import { destroyBox } from './destroy-box.ts'
import type { AppProcessSupport, DevboxRuntimeState, DevboxState } from './devbox-runtime-state.ts'
import { ensureOpen } from './ensure-open.ts'
import { internalRequest } from './internal-request.ts'
import { previewTarget } from './preview-target.ts'
import { restartFailed } from './restart-failed.ts'
import { startRuntime } from './start-runtime.ts'
import { type StopOptions, stopRuntime } from './stop-runtime.ts'
import { createUsageTracker } from './usage-tracker.ts'
import { wake } from './wake.ts'
import { isEditorReady, whenReady } from './when-ready.ts'

export type {
  AppProcessSupport,
  AppProcessSupportFor,
  DevboxState,
} from './devbox-runtime-state.ts'

/** How long a run waits for its box after a restart (a dev server's start timeout is 60 s). */
const readyTimeoutMs = 90_000

/**
 * The dev boxes of applications on this server: handed out from the pool (or provisioned cold),
 * recorded in `devboxes`, and re-opened after a restart.
 */
export type DevboxRuntime = {
  pool: DevboxPool
  /** The limits and enforcement of the driver's boxes, shown in the admin's pool tab. */
  confinement: DevboxConfinement | undefined
  /** The production servers of deployed apps (docs/architecture/devbox.md "Production servers"). */
  appServers: AppServerManager | undefined
  /** The application's environment, as its production servers get it at start. */
  secretsFor: (applicationId: string) => Promise<Record<string, string>>
  /** A box's request to `http://sprout.internal` (the driver's egress proxy calls this). */
  internalRequest: (boxId: string, request: IncomingMessage, response: ServerResponse) => void
  /**
   * A secret of the application was set or deleted: its dev server restarts with the new values
   * and its production server is replaced by one that has them, without downtime.
   */
  secretsChanged: (applicationId: string) => Promise<void>
  /** Gives the application a box: a ready one from the pool at once, else one provisioned now. */
  attach: (applicationId: string, packType?: PackType) => Promise<void>
  /** A use of the application's preview (an HMR message): postpones its idle stop. */
  touch: (applicationId: string) => void
  /**
   * Keeps the application's dev server from idling (a running agent run, an open builder) until
   * the returned function is called.
   */
  hold: (applicationId: string) => () => void
  /** Where the dev server answers while it runs, without counting as a use. */
  devServerTarget: (applicationId: string) => DevServerTarget | undefined
  /** The dev server's status without counting as a use (tests, the admin). */
  devServerStatus: (applicationId: string) => DevServerStatus | undefined
  /**
   * Where the preview proxy reaches the application's dev server: a use that opens the box or
   * starts an idle dev server, waiting up to `timeoutMs` for it to answer; undefined if not.
   */
  previewTarget: (applicationId: string, timeoutMs: number) => Promise<DevServerTarget | undefined>
  /** The box's state; asking is a use, so a box not opened since the restart starts opening. */
  state: (applicationId: string) => DevboxState
  /**
   * Boxes waiting to start ahead of the application's (0: it is next), or undefined when its box
   * does not wait (docs/architecture/devbox.md "Starts at once").
   */
  queuePosition: (applicationId: string) => number | undefined
  /**
   * The builder asks about a failed box: the first ask reports the failure (false), a later one
   * (the builder opened again) starts the box again (true).
   */
  restartFailed: (applicationId: string) => boolean
  /** Whether the application's box is open, without opening it. */
  isOpen: (applicationId: string) => boolean
  /** Whether the application's box exists from before the restart and is not open yet. */
  isReopening: (applicationId: string) => boolean
  /** The application's box when it is open; first use after a restart starts opening it. */
  box: (applicationId: string) => Devbox | undefined
  /**
   * The application's box, waiting for it to be opened (after a restart) or provisioned, up to
   * `timeoutMs`; undefined when it failed, is missing or took longer.
   */
  whenReady: (applicationId: string, timeoutMs?: number) => Promise<Devbox | undefined>
  /** Ready when the box exists and its dev server answers HTTP. */
  isEditorReady: (applicationId: string) => Promise<boolean>
  destroy: (applicationId: string) => Promise<void>
  /** This instance took the application's lease: its box is known from its row (decision 033). */
  adopt: (applicationId: string) => Promise<void>
  /** The lease is lost: the box stops here, its workspace kept for the next owner (decision 033). */
  release: (applicationId: string) => Promise<void>
  /** After a restart: the pool reopens its boxes, each application's box opens on first use. */
  start: () => Promise<void>
  stop: (options?: StopOptions) => Promise<void>
}

export type DevboxRuntimeOptions = {
  db: Database
  driver: DevboxDriver
  pool: DevboxPool
  logger: DevboxLogger
  /** What the application's processes receive (app-runtime/), given at creation. */
  appProcesses: AppProcessSupport
  /** The limits and enforcement of the driver's boxes, shown in the admin's pool tab. */
  confinement?: DevboxConfinement
  /** The production servers of deployed apps (docs/architecture/devbox.md "Production servers"). */
  appServers?: AppServerManager
  /**
   * DEVBOX_IDLE_MINUTES in ms: an application's dev server unused that long is stopped and
   * started again on its next use; 0 or unset: never (docs/architecture/devbox.md "Idle dev servers").
   */
  idleMs?: number
  now?: () => number
  /** The server's box starts, shared with the pool (DEVBOX_MAX_STARTS at once). */
  starts?: StartQueue
  /** Tests: a failed start's tries and first delay (3 tries, 2 s then 4 s apart). */
  startRetry?: { attempts: number; baseDelayMs: number }
  /** Several instances: boxes are known when their lease is taken, not all at start (decision 033). */
  boxesByLease?: boolean
}

/** The runtime's state, and its verbs (one file each in this folder) bound to it. */
export function createDevboxRuntime(options: DevboxRuntimeOptions): DevboxRuntime {
  const idleMs = options.idleMs ?? 0
  const state: DevboxRuntimeState = {
    db: options.db,
    driver: options.driver,
    pool: options.pool,
    logger: options.logger,
    appProcesses: options.appProcesses,
    appServers: options.appServers,
    idleMs,
    usage: createUsageTracker({ idleMs, now: options.now }),
    boxes: new Map(),
    states: new Map(),
    unopened: new Map(),
    opening: new Map(),
    starts: options.starts ?? createStartQueue(),
    startRetry: options.startRetry ?? { attempts: 3, baseDelayMs: 2000 },
    failureReported: new Set(),
    stopping: false,
    suspended: new Set(),
    suspending: new Map(),
    waking: new Map(),
    pending: new Set(),
    preparing: new Map(),
    poolStarted: Promise.resolve(),
    boxesByLease: options.boxesByLease ?? false,
    sweepTimer: undefined,
    recordTimer: undefined,
  }
  const { boxes, unopened, usage } = state
  return {
    pool: options.pool,
    confinement: options.confinement,
    appServers: options.appServers,
    secretsFor: (applicationId) => environmentFor(state, applicationId),
    internalRequest: (boxId, request, response) => internalRequest(state, boxId, request, response),
    secretsChanged: (applicationId) => environmentChanged(state, applicationId),
    attach: (applicationId, packType) => attach(state, applicationId, packType),
    touch: (applicationId) => usage.touch(applicationId),
    hold: (applicationId) => usage.hold(applicationId),
    devServerTarget: (applicationId) => boxes.get(applicationId)?.devServer.target(),
    devServerStatus: (applicationId) => boxes.get(applicationId)?.devServer.status(),
    previewTarget: (applicationId, timeoutMs) => previewTarget(state, applicationId, timeoutMs),
    state: (applicationId) => {
      if (unopened.has(applicationId)) void ensureOpen(state, applicationId)
      return state.states.get(applicationId) ?? 'missing'
    },
    queuePosition: (applicationId) => state.starts.position(applicationId),
    restartFailed: (applicationId) => restartFailed(state, applicationId),
    isOpen: (applicationId) => boxes.has(applicationId),
    isReopening: (applicationId) => unopened.has(applicationId),
    box: (applicationId) => {
      const box = boxes.get(applicationId)
      if (!box && unopened.has(applicationId)) void ensureOpen(state, applicationId)
      if (box) void wake(state, applicationId)
      return box
    },
    whenReady: (applicationId, timeoutMs = readyTimeoutMs) =>
      whenReady(state, applicationId, timeoutMs),
    isEditorReady: (applicationId) => isEditorReady(state, applicationId),
    destroy: (applicationId) => destroyBox(state, applicationId),
    adopt: (applicationId) => adoptBox(state, applicationId),
    release: (applicationId) => releaseBox(state, applicationId),
    start: () => startRuntime(state),
    stop: (stopOptions) => stopRuntime(state, stopOptions),
  }
}
