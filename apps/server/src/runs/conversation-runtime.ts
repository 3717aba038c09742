import type { DatabaseHandle } from '@sprout/db/database.ts'
import type { Leadership } from '../cluster/leader.ts'
import type { Config } from '../config/config.ts'
import type { DevboxRuntime } from '../devboxes/runtime/devbox-runtime.ts'
import { createEventHub } from '../stream/event-hub.ts'
import { createEventStore, type EventStore } from '../stream/event-store.ts'
import type { RunSecrets } from '../vault/service.ts'
import { createRunManager } from './run-manager.ts'
import { defaultRunSettings, type RunSettings } from './run-settings.ts'

export type ConversationRuntime = ReturnType<typeof createConversationRuntime>

/** The chat's moving parts of one server process: event store, live fan-out and agent runs. */
export function createConversationRuntime(options: {
  database: DatabaseHandle
  config: Config
  devboxes: DevboxRuntime
  settings?: Partial<RunSettings>
  /** The vault's side of runs: secrets in the agent's commands, redacted from what is stored. */
  secrets?: RunSecrets
  /** Whether this instance closes the runs of dead ones (docs/decisions/032-one-leader.md). */
  leadership: Pick<Leadership, 'isLeader' | 'onLeadershipChange'>
}) {
  const settings: RunSettings = { ...defaultRunSettings, ...options.settings }
  let store: EventStore | undefined
  const hub = createEventHub({
    database: options.database,
    store: () => {
      if (!store) throw new Error('event store not created')
      return store
    },
  })
  store = createEventStore({ database: options.database, onStored: hub.published })
  const runs = createRunManager({ ...options, store, settings })
  return {
    config: options.config,
    secrets: options.secrets,
    hub,
    store,
    runs,
    /** Mutable so tests can shorten timers and retries. */
    settings,
    start: async () => {
      await hub.start()
      await runs.start()
    },
    stop: async () => {
      await runs.stop()
      await hub.stop()
      store.close()
    },
  }
}
