import type { ChildProcess } from 'node:child_process'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { createSecretRedactor, type SecretRedactor } from '@sprout/protocol/text/redact-secrets.ts'
import type { DevServerStatus } from '../../../devbox-driver.ts'
import type { DevboxLogger } from '../../../logger.ts'
import type { BoxSandbox } from '../sandbox/box-sandbox.ts'

export const stopGraceMs = 2000
const keptLogCharacters = 64 * 1024

export type DevServerInput = {
  boxId: string
  workspacePath: string
  sandbox: BoxSandbox
  logger: DevboxLogger
  env?: Record<string, string>
}

/** One dev server's process, restarts and logs, shared by the verbs of dev-server.ts. */
export type DevServerState = DevServerInput & {
  status: DevServerStatus
  wanted: 'running' | 'stopped'
  port: number | undefined
  child: ChildProcess | undefined
  starting: Promise<void> | undefined
  restartTimer: NodeJS.Timeout | undefined
  restarts: number
  consecutiveCrashes: number
  runningSince: number
  logs: string
  /** The app's secrets (docs/product/vault.md "Where values go"); Sprout's own variables win. */
  extraEnv: Record<string, string>
  /** What the server prints is kept with those values redacted (logs, errors, server_logs). */
  redactor: SecretRedactor
  applying: Promise<void>
}

export function createDevServerState(input: DevServerInput): DevServerState {
  return {
    ...input,
    status: 'stopped',
    wanted: 'stopped',
    port: undefined,
    child: undefined,
    starting: undefined,
    restartTimer: undefined,
    restarts: 0,
    consecutiveCrashes: 0,
    runningSince: 0,
    logs: '',
    extraEnv: {},
    redactor: createSecretRedactor({}),
    applying: Promise.resolve(),
  }
}

// A function, not a comparison, because `stop()` may change `wanted` while launch awaits.
export const stopRequested = (state: DevServerState) => state.wanted === 'stopped'

export function appendLog(state: DevServerState, text: string): void {
  state.logs = cutText(state.logs + text, keptLogCharacters, 'end')
}
