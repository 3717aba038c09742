import { randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import {
  CHECK_BUDGET_SECONDS,
  CHECK_PART_NAMES,
  CHECK_TEXTS,
  type CheckPart,
  type CheckPartName,
  type CheckReport,
  type CheckTrigger,
} from '@sprout/protocol/api/checks.ts'
import { conflict } from '../http/app-error.ts'
import { CHECK_PARTS, PART_TIMEOUT_SECONDS } from './check-parts.ts'
import { storeCheck } from './check-store.ts'
import type { PartOutcome, StoreScreenshot } from './part-types.ts'
import { problem } from './problem-parsers.ts'

export type CheckContext = {
  db: Database
  box: Devbox
  applicationId: string
  /** Keeps failing acceptance tests' screenshots (check-screenshots.ts); none without it. */
  storeScreenshot?: StoreScreenshot
}

export type CheckOptions = {
  trigger: CheckTrigger
  runId: string | null
  /** New or regressed error groups since then (the run's start); default: the check's start. */
  errorsSince?: Date
  signal?: AbortSignal
  /** Called with the whole report as each part starts and ends (a run streams it). */
  onProgress?: (report: CheckReport) => void
  /**
   * Removes the app's secret values from what is streamed and stored (a server's output may print
   * them: docs/product/vault.md "Where values go").
   */
  redact?: <T>(value: T) => T
  /** ACCEPTANCE_TESTS=off: the acceptance part is skipped with a note saying so. */
  acceptanceTests?: boolean
  /** Shorter limits (tests); each part's default is PART_TIMEOUT_SECONDS. */
  partTimeouts?: Partial<Record<CheckPartName, number>>
  budgetSeconds?: number
}

const ACCEPTANCE_TESTS_OFF = 'Turned off for this installation (ACCEPTANCE_TESTS=off)'

// One check per application at a time in this process (the type check's build info is shared).
const running = new Map<string, Promise<unknown>>()

/**
 * Checks an application (docs/product/checks.md "The check"): its parts in order, each within its
 * own limit and the whole budget, stored as it goes. A manual check while another runs is
 * refused (409); a run's or the tool's waits for it. An abort ends it as 'interrupted'.
 */
export async function runCheck(context: CheckContext, options: CheckOptions): Promise<CheckReport> {
  const current = running.get(context.applicationId)
  if (current && options.trigger === 'manual') throw conflict(CHECK_TEXTS.busy)
  const previous = current ?? Promise.resolve()
  const work = previous.catch(() => undefined).then(() => checkNow(context, options))
  const settled = work.catch(() => undefined)
  running.set(context.applicationId, settled)
  void settled.finally(() => {
    if (running.get(context.applicationId) === settled) running.delete(context.applicationId)
  })
  return work
}

/** Settles once the application's checks under way or waiting here have ended. */
export function checksSettled(applicationId: string): Promise<unknown> {
  return running.get(applicationId) ?? Promise.resolve()
}

async function checkNow(context: CheckContext, options: CheckOptions): Promise<CheckReport> {
  const startedAt = new Date()
  const signal = options.signal ?? new AbortController().signal
  const redacted = (value: CheckReport) => {
    const copy = structuredClone(value)
    return options.redact ? options.redact(copy) : copy
  }
  const report: CheckReport = {
    id: randomUUID(),
    state: 'running',
    trigger: options.trigger,
    parts: CHECK_PART_NAMES.map((name) => ({
      name,
      status: 'pending',
      problems: [],
      problemCount: 0,
      durationMs: null,
      note: null,
    })),
    startedAt: startedAt.toISOString(),
    finishedAt: null,
  }
  const publish = async () => {
    const copy = redacted(report)
    options.onProgress?.(copy)
    await storeCheck(context.db, {
      applicationId: context.applicationId,
      runId: options.runId,
      report: copy,
    })
  }
  await publish()
  const deadline = startedAt.getTime() + (options.budgetSeconds ?? CHECK_BUDGET_SECONDS) * 1000
  for (const [index, name] of CHECK_PART_NAMES.entries()) {
    const part = report.parts[index] as CheckPart
    const left = Math.floor((deadline - Date.now()) / 1000)
    if (signal.aborted || left < 1) {
      Object.assign(part, {
        status: 'skipped',
        note: signal.aborted ? null : 'No time left in the check',
      })
      continue
    }
    if (name === 'acceptance' && options.acceptanceTests === false) {
      Object.assign(part, { status: 'skipped', note: ACCEPTANCE_TESTS_OFF })
      continue
    }
    part.status = 'running'
    await publish()
    const timeoutSeconds = Math.min(
      options.partTimeouts?.[name] ?? PART_TIMEOUT_SECONDS[name],
      left,
    )
    const started = Date.now()
    const outcome = await runPart(
      name,
      { ...context, errorsSince: options.errorsSince ?? startedAt, timeoutSeconds, signal },
      deadline,
    )
    Object.assign(part, outcome, { durationMs: Date.now() - started })
    if (signal.aborted && outcome.status !== 'passed')
      Object.assign(part, { status: 'skipped', problems: [], problemCount: 0, note: null })
    await publish()
  }
  report.state = signal.aborted
    ? 'interrupted'
    : report.parts.some((part) => part.status === 'failed' || part.status === 'timed-out')
      ? 'failed'
      : 'passed'
  report.finishedAt = new Date().toISOString()
  await publish()
  return redacted(report)
}

/**
 * A part that throws (the box went away) is a failed part saying why, not a failed check. A part
 * ends by its own limit and the check's budget even when what it waits on does not (an app's
 * server trickling its answer): its signal ends its work, and it is timed out at once.
 */
async function runPart(
  name: CheckPartName,
  context: Parameters<(typeof CHECK_PARTS)[CheckPartName]>[0],
  checkDeadline: number,
): Promise<PartOutcome> {
  const ended = new AbortController()
  const endPart = () => ended.abort()
  context.signal.addEventListener('abort', endPart, { once: true })
  let timer: NodeJS.Timeout | undefined
  // A moment's grace lets a part say what it waited on; the check's budget has none.
  const limitMs = Math.min(context.timeoutSeconds * 1000 + 500, checkDeadline - Date.now())
  const outOfTime = new Promise<PartOutcome>((resolve) => {
    timer = setTimeout(() => {
      resolve({
        status: 'timed-out',
        problems: [],
        problemCount: 0,
        note: `Timed out after ${context.timeoutSeconds} s`,
      })
      ended.abort()
    }, limitMs)
  })
  const work = CHECK_PARTS[name]({ ...context, signal: ended.signal }).catch(
    (error: unknown): PartOutcome => {
      const message = error instanceof Error ? error.message : String(error)
      return { status: 'failed', problems: [problem({ message })], problemCount: 1, note: null }
    },
  )
  try {
    return await Promise.race([work, outOfTime])
  } finally {
    clearTimeout(timer)
    context.signal.removeEventListener('abort', endPart)
    ended.abort()
  }
}
