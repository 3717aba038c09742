import { DevServerAnswerError, requestDevServer } from '@sprout/devbox/dev-server-request.ts'
import type { ExecResult } from '@sprout/devbox/devbox-driver.ts'
import type { CheckPartName, CheckProblem } from '@sprout/protocol/api/checks.ts'
import { appStackLines } from '@sprout/protocol/text/app-stack.ts'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { newErrorGroups } from '../error-monitoring/service.ts'
import { acceptance } from './acceptance-part.ts'
import { CHECK_FOLDER, type PartContext, type PartOutcome } from './part-types.ts'
import {
  appFrame,
  keptProblems,
  parseBuildErrors,
  parseTypeErrors,
  plainOutput,
  problem,
} from './problem-parsers.ts'

// The five parts of a check (docs/product/checks.md "The check"), each inside the app's box.

const passed: PartOutcome = { status: 'passed', problems: [], problemCount: 0, note: null }

function timedOut(seconds: number, problems: CheckProblem[] = []): PartOutcome {
  return { status: 'timed-out', ...keptProblems(problems), note: `Timed out after ${seconds} s` }
}

function failed(problems: CheckProblem[]): PartOutcome {
  return { status: 'failed', ...keptProblems(problems), note: null }
}

async function execInBox(context: PartContext, command: string): Promise<ExecResult> {
  return context.box.exec(command, {
    timeoutSeconds: context.timeoutSeconds,
    signal: context.signal,
    outputLimitBytes: 256 * 1024,
    env: { NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' },
  })
}

/**
 * The app's type check, incremental: the second check re-checks only what changed. The app's own
 * binaries, not npx: npx alone costs half a second or more per call.
 */
async function typeCheck(context: PartContext): Promise<PartOutcome> {
  const result = await execInBox(
    context,
    `node_modules/.bin/tsc --noEmit --incremental --tsBuildInfoFile ${CHECK_FOLDER}/tsbuildinfo --pretty false`,
  )
  if (result.timedOut) return timedOut(context.timeoutSeconds)
  if (result.exitCode === 0) return passed
  const problems = parseTypeErrors(result.output, context.box.workspacePath)
  if (problems.length > 0) return failed(problems)
  const output = plainOutput(result.output).trim()
  return failed([
    problem({ message: output || `tsc exited with ${result.exitCode}`, text: output }),
  ])
}

/**
 * The production build of the client, and of the server for apps with one, as a deploy builds
 * them (the type check is its own part), into the check's folder: the deploy's dist/ is untouched.
 */
async function build(context: PartContext): Promise<PartOutcome> {
  const builds = [`node_modules/.bin/vite build --outDir ${CHECK_FOLDER}/client --emptyOutDir`]
  if (context.box.packType === 'fullstack') {
    builds.push(
      `node_modules/.bin/vite build --ssr server/main.ts --outDir ${CHECK_FOLDER}/server --emptyOutDir`,
    )
  }
  const command = `${builds.join(' && ')}; status=$?; rm -rf ${CHECK_FOLDER}/client ${CHECK_FOLDER}/server; exit $status`
  const result = await execInBox(context, command)
  if (result.timedOut) return timedOut(context.timeoutSeconds)
  if (result.exitCode === 0) return passed
  return failed(parseBuildErrors(result.output, context.box.workspacePath))
}

/** A health answer is a status and a few words: a longer one is refused (docs/product/checks.md). */
export const HEALTH_ANSWER_MAX_BYTES = 64 * 1024
/** One ask of the health route, all of it: a trickling answer is cut off after this. */
const HEALTH_REQUEST_MS = 5000

/** GET /api/health on the dev server answers 2xx (started first if it was stopped). */
async function health(context: PartContext): Promise<PartOutcome> {
  if (context.box.packType !== 'fullstack') {
    return { status: 'skipped', problems: [], problemCount: 0, note: 'No server in this app' }
  }
  const deadline = Date.now() + context.timeoutSeconds * 1000
  const { devServer } = context.box
  if (devServer.status() !== 'running') await devServer.start()
  let lastProblem = 'The dev server is not running'
  // A dev server restarting after the run's changes answers within moments: asked again until then.
  while (Date.now() < deadline && !context.signal.aborted) {
    try {
      const remaining = Math.max(250, deadline - Date.now())
      const answer = await requestDevServer(devServer.target(), '/api/health', {
        timeoutMs: Math.min(remaining, HEALTH_REQUEST_MS),
        maxBytes: HEALTH_ANSWER_MAX_BYTES,
        signal: context.signal,
      })
      if (answer.status >= 200 && answer.status < 300) return passed
      lastProblem = `GET /api/health answered ${answer.status}`
      if (answer.status < 500) break
    } catch (error) {
      lastProblem = `GET /api/health: ${error instanceof Error ? error.message : String(error)}`
      // Asked again, the same endless answer would only be cut off again.
      if (error instanceof DevServerAnswerError && error.reason === 'too-large') {
        return failed([problem({ message: lastProblem, text: lastProblem })])
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const logs = cutText(plainOutput(devServer.logs?.() ?? '').trim(), 1500, 'end')
  const found = problem({
    message: lastProblem,
    text: logs ? `${lastProblem}\n\n${logs}` : lastProblem,
  })
  return Date.now() >= deadline && !lastProblem.includes('answered')
    ? timedOut(context.timeoutSeconds, [found])
    : failed([found])
}

/** The app's error groups new, or come back after being resolved, since the run started. */
async function newErrors(context: PartContext): Promise<PartOutcome> {
  const groups = await newErrorGroups(context.db, context.applicationId, context.errorsSince)
  if (groups.length === 0) return passed
  return failed(
    groups.map((group) => {
      const title = group.message.startsWith(`${group.errorType}:`)
        ? group.message
        : `${group.errorType}: ${group.message}`
      return problem({
        ...appFrame(group.stack),
        message: title,
        // The app's own frames, as 'Ask agent to fix' sends them (docs/product/error-monitoring.md
        // "Builder error list"): the repair turn gets this text.
        text: [title, ...appStackLines(group.stack)].join('\n'),
      })
    }),
  )
}

export const CHECK_PARTS: Record<CheckPartName, (context: PartContext) => Promise<PartOutcome>> = {
  types: typeCheck,
  build,
  health,
  errors: newErrors,
  acceptance,
}

/** Each part's own limit, in seconds, within the whole check's budget. */
export const PART_TIMEOUT_SECONDS: Record<CheckPartName, number> = {
  types: 30,
  build: 40,
  health: 10,
  errors: 5,
  acceptance: 60,
}
