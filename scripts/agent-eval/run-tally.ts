import type { CheckReport } from '@sprout/protocol/api/checks.ts'
import {
  type KnownStreamChunk,
  knownStreamChunkTypes,
} from '@sprout/protocol/stream/stream-chunk.ts'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'

/**
 * What a conversation's stream told about a spec's runs: their states, the repair turn, the
 * checks (docs/product/checks.md), steps, tool calls and tokens (`data-usage`, one per model call).
 */
export type RunTally = {
  lastSeq: number
  /** Every run seen, in order: its status and whether it is a repair turn. */
  runs: { id: string; status: string; repair: boolean }[]
  /** The repair turn's title ('Fixing 2 type errors…') when one ran. */
  repairTitle: string | undefined
  /**
   * A repair's message was seen, its run not yet: the message is stored outside any run
   * (runId null), just before its run's `data-run`.
   */
  repairAnnounced: boolean
  /** The last report of every check seen, in order. */
  checks: CheckReport[]
  steps: number
  toolCalls: number
  /** The agent wrote or changed a file under tests/acceptance/ (docs/product/checks.md). */
  acceptanceWritten: boolean
  tokens: { input: number; cacheRead: number; output: number }
  errors: string[]
}

export function emptyTally(): RunTally {
  return {
    lastSeq: 0,
    runs: [],
    repairTitle: undefined,
    repairAnnounced: false,
    checks: [],
    steps: 0,
    toolCalls: 0,
    acceptanceWritten: false,
    tokens: { input: 0, cacheRead: 0, output: 0 },
    errors: [],
  }
}

function runOf(tally: RunTally, id: string) {
  let run = tally.runs.find((candidate) => candidate.id === id)
  if (!run) {
    run = { id, status: 'running', repair: false }
    tally.runs.push(run)
  }
  return run
}

/** Applies one envelope (in place); envelopes at or below `lastSeq` were counted already. */
export function applyEnvelope(tally: RunTally, envelope: StreamEnvelope): void {
  if (envelope.seq <= tally.lastSeq) return
  tally.lastSeq = envelope.seq
  // Other chunk types are kept by the server as they came and say nothing counted here.
  if (!knownStreamChunkTypes.has(envelope.chunk.type)) return
  const chunk = envelope.chunk as KnownStreamChunk
  switch (chunk.type) {
    case 'data-run': {
      const run = runOf(tally, chunk.data.runId)
      run.status = chunk.data.status
      if (chunk.data.status === 'running' && tally.repairAnnounced) {
        run.repair = true
        tally.repairAnnounced = false
      }
      break
    }
    case 'data-user-message':
      if (chunk.data.repair) {
        tally.repairTitle = chunk.data.repair.title
        if (envelope.runId) runOf(tally, envelope.runId).repair = true
        else tally.repairAnnounced = true
      }
      break
    case 'start-step':
      tally.steps += 1
      break
    case 'tool-input-available':
      tally.toolCalls += 1
      if (writesAcceptanceTest(chunk.toolName, chunk.input)) tally.acceptanceWritten = true
      break
    case 'tool-input-error':
      tally.toolCalls += 1
      break
    case 'data-usage':
      tally.tokens.input += chunk.data.inputTokens
      tally.tokens.cacheRead += chunk.data.cacheReadTokens
      tally.tokens.output += chunk.data.outputTokens
      break
    case 'data-checks': {
      const index = tally.checks.findIndex((check) => check.id === chunk.data.id)
      if (index === -1) tally.checks.push(chunk.data)
      else tally.checks[index] = chunk.data
      break
    }
    case 'data-error':
      tally.errors.push(chunk.data.error)
      break
    case 'error':
      tally.errors.push(chunk.errorText)
      break
  }
}

const editingTools = new Set(['write_file', 'str_replace'])

function writesAcceptanceTest(toolName: string, input: unknown): boolean {
  const path = (input as { path?: unknown } | null)?.path
  return (
    editingTools.has(toolName) &&
    typeof path === 'string' &&
    path.replace(/^\.\//, '').startsWith('tests/acceptance/')
  )
}

/**
 * The acceptance part of the last check after a run: its status, or 'none' without a check
 * (docs/product/checks.md "Acceptance tests").
 */
export function acceptanceState(tally: RunTally): string {
  return lastCheck(tally)?.parts.find((part) => part.name === 'acceptance')?.status ?? 'none'
}

export const activeRun = (tally: RunTally) => tally.runs.some((run) => run.status === 'running')
/** The last check after a run (not one the agent ran with run_checks during its run). */
export const lastCheck = (tally: RunTally) =>
  tally.checks.filter((check) => check.trigger === 'run').at(-1)

/**
 * A repair turn may still start: the last check failed after a finished run that was not itself
 * a repair, and no repair has been seen (docs/product/checks.md "One repair").
 */
export function repairMayFollow(tally: RunTally): boolean {
  const last = tally.runs.at(-1)
  return (
    lastCheck(tally)?.state === 'failed' &&
    last !== undefined &&
    last.status === 'finished' &&
    !last.repair
  )
}

/** The product's own verdict on the app: its last check's state, or 'none' without a check. */
export function productCheckState(tally: RunTally): 'passed' | 'failed' | 'none' | 'running' {
  const state = lastCheck(tally)?.state
  if (state === undefined) return 'none'
  if (state === 'interrupted') return 'failed'
  return state
}

/** The stream's total of tokens, every kind. */
export const totalTokens = (tally: RunTally) =>
  tally.tokens.input + tally.tokens.cacheRead + tally.tokens.output
