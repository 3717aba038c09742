import type { ChildProcess } from 'node:child_process'
import { setTimeout as delay } from 'node:timers/promises'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { devServerAnswers } from '../../../dev-server-request.ts'
import { type DevServerState, stopGraceMs, stopRequested } from './dev-server-state.ts'
import { findFreePort, isPortFree } from './free-port.ts'
import { killProcessGroup, signalProcessGroup } from './process-group.ts'
import { spawnDevServer } from './spawn-dev-server.ts'

const startTimeoutMs = 60_000
const maxStartAttempts = 3
const restartBaseDelayMs = 500
const restartMaxDelayMs = 10_000
/** A server that ran this long before dying is restarted quickly again. */
const stableRunMs = 30_000

/** Starts the server on a free port (the box's fixed one) and waits until it answers. */
export async function launchDevServer(state: DevServerState, attempt = 1): Promise<void> {
  state.status = 'starting'
  await state.sandbox.prepare()
  const fixedPort = state.sandbox.fixedDevPort
  const previousPort = state.port
  state.port =
    fixedPort ??
    (previousPort !== undefined && (await isPortFree(previousPort))
      ? previousPort
      : await findFreePort())
  const port = state.port
  if (stopRequested(state)) {
    state.status = 'stopped'
    return
  }
  const serverProcess = spawnDevServer(state, port, (exited, code, signal) =>
    onExit(state, exited, code, signal),
  )
  const target = state.sandbox.devServerTarget(port)
  const deadline = Date.now() + startTimeoutMs
  while (state.child === serverProcess && !stopRequested(state)) {
    if (await devServerAnswers(target)) {
      state.status = 'running'
      state.runningSince = Date.now()
      return
    }
    if (Date.now() > deadline) {
      if (serverProcess.pid !== undefined) await killProcessGroup(serverProcess.pid, stopGraceMs)
      break
    }
    await delay(100)
  }
  if (stopRequested(state)) return
  // Another process took the port between choosing it and the server binding it.
  if (fixedPort === undefined && attempt < maxStartAttempts && !(await isPortFree(port))) {
    state.port = undefined
    return launchDevServer(state, attempt + 1)
  }
  throw new Error(
    `The dev server of box ${state.boxId} did not start:\n${cutText(state.logs, 2000, 'end')}`,
  )
}

/** An unexpected exit is answered with a restart after a growing delay. */
export function scheduleDevServerRestart(state: DevServerState): void {
  if (state.wanted !== 'running' || state.restartTimer) return
  if (state.runningSince && Date.now() - state.runningSince > stableRunMs) {
    state.consecutiveCrashes = 0
  }
  const waitMs = Math.min(restartBaseDelayMs * 2 ** state.consecutiveCrashes, restartMaxDelayMs)
  state.consecutiveCrashes += 1
  state.restartTimer = setTimeout(() => {
    state.restartTimer = undefined
    if (state.wanted !== 'running') return
    state.restarts += 1
    state.starting = launchDevServer(state)
    state.starting.catch((error: Error) => {
      state.status = 'crashed'
      state.logger.warn('Dev server restart failed', { boxId: state.boxId, error: error.message })
      scheduleDevServerRestart(state)
    })
  }, waitMs)
  state.restartTimer.unref()
}

function onExit(
  state: DevServerState,
  exited: ChildProcess,
  code: number | null,
  signal: NodeJS.Signals | null,
): void {
  if (state.child !== exited) return
  state.child = undefined
  // Whatever the server left behind in its group goes with it.
  if (exited.pid !== undefined) signalProcessGroup(exited.pid, 'SIGKILL')
  if (state.wanted === 'stopped') {
    state.status = 'stopped'
    return
  }
  const wasRunning = state.status === 'running'
  state.status = 'crashed'
  if (wasRunning) {
    state.logger.warn('Dev server exited unexpectedly; restarting it', {
      boxId: state.boxId,
      code,
      signal,
    })
    scheduleDevServerRestart(state)
  }
}
