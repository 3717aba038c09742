import { readdirSync, readFileSync } from 'node:fs'
import { setTimeout as delay } from 'node:timers/promises'

/** Sends a signal to a whole process group (a child started with `detached: true`). */
export function signalProcessGroup(groupId: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-groupId, signal)
    return true
  } catch {
    return false
  }
}

/**
 * Whether any process of the group is still running. Zombies do not count: orphans are reaped
 * by the machine's init, which may take a while, but they no longer run anything.
 */
export function isProcessGroupAlive(groupId: number): boolean {
  if (!signalProcessGroup(groupId, 0)) return false
  let processIds: string[]
  try {
    processIds = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return true
  }
  return processIds.some((processId) => {
    try {
      const stat = readFileSync(`/proc/${processId}/stat`, 'utf8')
      // Fields after the command name, which is in parentheses and may contain spaces.
      const [state, , processGroup] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      return Number(processGroup) === groupId && state !== 'Z'
    } catch {
      return false
    }
  })
}

/** SIGTERM, then SIGKILL after `graceMs` if anything in the group is still running. */
export async function killProcessGroup(groupId: number, graceMs: number): Promise<void> {
  if (!signalProcessGroup(groupId, 'SIGTERM')) return
  if (await waitUntilGone(groupId, graceMs)) return
  signalProcessGroup(groupId, 'SIGKILL')
  await waitUntilGone(groupId, killedWaitMs)
}

const killedWaitMs = 1000

async function waitUntilGone(groupId: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    await delay(25)
    if (!isProcessGroupAlive(groupId)) return true
  }
  return false
}
