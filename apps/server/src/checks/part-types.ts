import type { Database } from '@sprout/db/database.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import type { CheckPartStatus, CheckProblem } from '@sprout/protocol/api/checks.ts'

// What each part of a check gets and answers (docs/product/checks.md "The check").

/** Stores a failing acceptance test's screenshot as an image; its id for the problem. */
export type StoreScreenshot = (
  bytes: Buffer,
) => Promise<{ id: string; width: number; height: number }>

export type PartContext = {
  db: Database
  box: Devbox
  applicationId: string
  storeScreenshot?: StoreScreenshot
  errorsSince: Date
  timeoutSeconds: number
  signal: AbortSignal
}

export type PartOutcome = {
  status: Exclude<CheckPartStatus, 'pending' | 'running'>
  problems: CheckProblem[]
  problemCount: number
  note: string | null
}

/** The check's own files: ignored by git (the templates' .gitignore) and hidden from the Code tab. */
export const CHECK_FOLDER = '.cache/sprout-check'
