import {
  RECONNECT_BASE_DELAY_MS,
  RECONNECT_JITTER_RATIO,
  RECONNECT_MAX_DELAY_MS,
} from '../constants.ts'

/**
 * Milliseconds to wait before reconnect attempt `attempt` (0 for the first retry): 1 s doubled
 * per attempt, ±25 % jitter so that many clients do not reconnect in step, never above 30 s.
 * `random` is a number in [0, 1), e.g. `Math.random()`.
 */
export function reconnectDelay(attempt: number, random: number): number {
  const exponent = Math.max(0, Math.floor(attempt))
  const base = Math.min(RECONNECT_MAX_DELAY_MS, RECONNECT_BASE_DELAY_MS * 2 ** exponent)
  const jitter = 1 + (random * 2 - 1) * RECONNECT_JITTER_RATIO
  return Math.round(Math.min(RECONNECT_MAX_DELAY_MS, base * jitter))
}
