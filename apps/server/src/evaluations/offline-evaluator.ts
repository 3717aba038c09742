import { findSecretRequests } from '@sprout/protocol/text/secret-request.ts'
import type { Transcript, TranscriptEntry } from './transcript.ts'

/**
 * The offline evaluator (docs/decisions/020-evaluations.md): a deterministic reading of the
 * transcript, no model. Its figures are an evaluation of their own with the `demo` judge, and the
 * facts a model judge receives with the transcript.
 */
export type TranscriptFigures = {
  user_messages: number
  agent_messages: number
  tool_calls: number
  tool_errors: number
  /** User messages after the first that read like a correction ('still', 'doesn't work', …). */
  corrections: number
  interrupts: number
  /** Runs started again after a failed or interrupted one without a new user message. */
  retries: number
  provider_errors: number
  staged_messages: number
  handed_back_messages: number
  compactions: number
  secret_requests: number
  /** The same failing command or call repeated three times or more in a row. */
  loops: number
  duration_seconds: number
  input_tokens: number
  output_tokens: number
  cache_read_tokens: number
  first_failing_tool_call: { name: string; input: string; output: string } | null
  last_run_status: string | null
}

const correctionPattern =
  /\b(still|again|doesn'?t work|does not work|not working|broken|wrong|didn'?t|did not|no,|instead|fix|error|fails?)\b/i

const short = (value: string, max: number) =>
  value.length > max ? `${value.slice(0, max)}…` : value

const inputText = (input: unknown) =>
  typeof input === 'string' ? input : (JSON.stringify(input) ?? '')

type Tool = Extract<TranscriptEntry, { kind: 'tool' }>

function countLoops(tools: Tool[]): number {
  let loops = 0
  let run = 1
  for (let index = 1; index < tools.length; index++) {
    const previous = tools[index - 1]
    const current = tools[index]
    const same =
      current?.failed &&
      previous?.failed &&
      current.name === previous.name &&
      inputText(current.input) === inputText(previous.input)
    run = same ? run + 1 : 1
    if (run === 3) loops += 1
  }
  return loops
}

function countRetries(entries: TranscriptEntry[]): number {
  let retries = 0
  let lastEnd: string | null = null
  let userSince = false
  for (const entry of entries) {
    if (entry.kind === 'user') userSince = true
    if (entry.kind !== 'run') continue
    if (entry.status === 'running') {
      if (!userSince && (lastEnd === 'failed' || lastEnd === 'interrupted')) retries += 1
      userSince = false
    } else {
      lastEnd = entry.status
    }
  }
  return retries
}

export function transcriptFigures(transcript: Transcript): TranscriptFigures {
  const { entries } = transcript
  const of = <Kind extends TranscriptEntry['kind']>(kind: Kind) =>
    entries.filter(
      (entry): entry is Extract<TranscriptEntry, { kind: Kind }> => entry.kind === kind,
    )
  const users = of('user')
  const tools = of('tool')
  const errors = of('error')
  const staged = of('staged')
  const runs = of('run').filter((run) => run.status !== 'running')
  const firstFailing = tools.find((tool) => tool.failed)
  const duration =
    transcript.startedAt && transcript.endedAt
      ? (transcript.endedAt.getTime() - transcript.startedAt.getTime()) / 1000
      : 0
  return {
    user_messages: users.length,
    agent_messages: of('assistant').length,
    tool_calls: tools.length,
    tool_errors: tools.filter((tool) => tool.failed).length,
    corrections: users.slice(1).filter((user) => correctionPattern.test(user.text)).length,
    interrupts: errors.filter((error) => error.errorType === 'interrupt').length,
    retries: countRetries(entries),
    provider_errors: errors.filter((error) => error.errorType !== 'interrupt').length,
    staged_messages: staged.length,
    handed_back_messages: staged.filter((message) => message.status === 'unsent').length,
    compactions: of('compaction').length,
    secret_requests: of('assistant').reduce(
      (count, message) => count + findSecretRequests(message.text).length,
      0,
    ),
    loops: countLoops(tools),
    duration_seconds: Math.round(duration),
    input_tokens: transcript.usage.inputTokens,
    output_tokens: transcript.usage.outputTokens,
    cache_read_tokens: transcript.usage.cacheReadTokens,
    first_failing_tool_call: firstFailing
      ? {
          name: firstFailing.name,
          input: short(inputText(firstFailing.input), 300),
          output: short(firstFailing.output, 600),
        }
      : null,
    last_run_status: runs.at(-1)?.status ?? null,
  }
}

function outcomeOf(figures: TranscriptFigures): string {
  if (figures.user_messages === 0) return 'Empty: the conversation has no user message.'
  switch (figures.last_run_status) {
    case 'finished':
      return 'The last run finished.'
    case 'failed':
      return 'The last run failed.'
    case 'interrupted':
      return 'The last run was interrupted by the user.'
    default:
      return 'No run has ended yet.'
  }
}

function frictionLines(figures: TranscriptFigures): string[] {
  const lines: string[] = []
  const add = (count: number, text: string) => {
    if (count > 0) lines.push(`- ${count} ${text}`)
  }
  add(figures.corrections, 'user message(s) reading like a correction')
  add(figures.tool_errors, `failing tool call(s) of ${figures.tool_calls}`)
  add(figures.loops, 'loop(s): the same failing call three times in a row')
  add(figures.interrupts, 'interrupt(s)')
  add(figures.retries, 'retry(ies) after a failed or interrupted run')
  add(figures.provider_errors, 'provider or server error(s)')
  add(figures.secret_requests, 'secret request(s) (a missing secret)')
  add(figures.handed_back_messages, 'staged message(s) handed back unsent')
  add(figures.compactions, 'compaction(s) of the history')
  return lines
}

/** The offline evaluator's markdown summary; it says that it is not an AI judgement. */
export function offlineSummary(figures: TranscriptFigures): string {
  const friction = frictionLines(figures)
  const tokens = figures.input_tokens + figures.output_tokens + figures.cache_read_tokens
  const parts = [
    '__Offline analysis (not AI): counts read from the transcript.__',
    '',
    `**Outcome:** ${outcomeOf(figures)}`,
    '',
    friction.length > 0 ? '**Friction:**' : '**Friction:** none found.',
    ...friction,
    '',
    `**Size:** ${figures.user_messages} user and ${figures.agent_messages} agent message(s), ` +
      `${figures.tool_calls} tool call(s), ${figures.staged_messages} staged, ` +
      `${figures.duration_seconds} s, ${tokens.toLocaleString('en-US')} tokens ` +
      `(${figures.input_tokens} in, ${figures.output_tokens} out, ${figures.cache_read_tokens} cache read).`,
  ]
  const failing = figures.first_failing_tool_call
  if (failing) {
    parts.push(
      '',
      `**First failing tool call:** \`${failing.name}\``,
      '```',
      failing.input,
      '```',
      '```',
      failing.output,
      '```',
    )
  }
  return parts.join('\n')
}
