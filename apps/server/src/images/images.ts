import type { Database } from '@sprout/db/database.ts'
import type { Leadership } from '../cluster/leader.ts'
import { leaderSweep } from '../cluster/leader-sweep.ts'
import type { Config } from '../config/config.ts'
import { imagesDirOf, sweepImageFiles } from './image-files.ts'
import type { ImageStore } from './service.ts'

/** How often files whose rows went (a conversation, application or account deleted) are removed. */
const sweepEveryMs = 60_000

/** Chat images of this server: where they are kept, and the sweep of deleted ones' files. */
export function createImages(options: {
  db: Database
  config: Pick<Config, 'dataDir' | 'sharedDir'>
  /** Instances sharing a folder sweep it once: the leader does (decision 032). */
  leadership: Pick<Leadership, 'isLeader'>
}) {
  const store: ImageStore = { db: options.db, directory: imagesDirOf(options.config) }
  const what = '[images] removing the files of deleted images'
  const sweep = () =>
    sweepImageFiles(store.db, store.directory).catch((error: Error) => {
      console.error(`${what} failed:`, error.message)
      return 0
    })
  return {
    store,
    sweep,
    ...leaderSweep({ what, everyMs: sweepEveryMs, sweep, leadership: options.leadership }),
  }
}
