import type { Leadership } from './leader.ts'

/**
 * A sweep of shared rows or files that one instance runs for all (decision 032): at start and then
 * every `everyMs`, on the leader only (every instance when there is no leadership to ask); a
 * failure is logged with `what` and the next round tries again.
 */
export function leaderSweep(options: {
  what: string
  everyMs: number
  sweep: () => Promise<unknown>
  leadership?: Pick<Leadership, 'isLeader'>
}) {
  let timer: NodeJS.Timeout | undefined
  const sweepIfLeader = () => {
    if (options.leadership && !options.leadership.isLeader()) return
    options.sweep().catch((error: Error) => {
      console.error(`${options.what} failed:`, error.message)
    })
  }
  return {
    start: () => {
      sweepIfLeader()
      timer ??= setInterval(sweepIfLeader, options.everyMs)
      timer.unref()
    },
    stop: () => {
      clearInterval(timer)
      timer = undefined
    },
  }
}
