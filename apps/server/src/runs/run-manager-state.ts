import { randomUUID } from 'node:crypto'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import type { Leadership } from '../cluster/leader.ts'
import type { Config } from '../config/config.ts'
import type { DevboxRuntime } from '../devboxes/runtime/devbox-runtime.ts'
import type { EventStore } from '../stream/event-store.ts'
import type { RunSecrets } from '../vault/service.ts'
import { createCheckpointQueue } from './checkpoints.ts'
import type { RunContext } from './close-run.ts'
import type { RunSettings } from './run-settings.ts'
import type { ActiveRun, RunEnvironment } from './run-types.ts'

/** Where a process's interrupts for runs of another process travel (LISTEN/NOTIFY). */
export const INTERRUPTS_CHANNEL = 'conversation_interrupts'

export type RunManagerOptions = {
  database: DatabaseHandle
  config: Config
  devboxes: DevboxRuntime
  store: EventStore
  settings: RunSettings
  secrets?: RunSecrets
  /** Only the leader closes dead instances' runs (docs/decisions/032-one-leader.md). */
  leadership: Pick<Leadership, 'isLeader' | 'onLeadershipChange'>
}

/** What the run manager's verbs share: the process's active runs and its heartbeat. */
export type RunManagerState = RunManagerOptions & {
  instanceId: string
  /** The run of each conversation executing in this process. */
  active: Map<string, ActiveRun>
  halted: boolean
  timer: ReturnType<typeof setInterval> | undefined
  ticking: Promise<void>
  stopListening: (() => Promise<void>) | undefined
  stopFollowingLeadership: (() => void) | undefined
  environment: RunEnvironment
  closing: RunContext
}

export function createRunManagerState(options: RunManagerOptions): RunManagerState {
  const state: RunManagerState = {
    ...options,
    instanceId: randomUUID(),
    active: new Map(),
    halted: false,
    timer: undefined,
    ticking: Promise.resolve(),
    stopListening: undefined,
    stopFollowingLeadership: undefined,
    closing: { database: options.database, store: options.store },
    environment: {
      ...options,
      isHalted: () => state.halted,
      checkpoint: createCheckpointQueue(),
    },
  }
  return state
}
