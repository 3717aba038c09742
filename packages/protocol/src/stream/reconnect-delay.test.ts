import { describe, expect, it } from 'vitest'
import { reconnectDelay } from './reconnect-delay.ts'

describe('reconnectDelay', () => {
  it('starts at 1 s and doubles without jitter', () => {
    expect([0, 1, 2, 3, 4].map((attempt) => reconnectDelay(attempt, 0.5))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000,
    ])
  })

  it('is capped at 30 s', () => {
    expect(reconnectDelay(5, 0.5)).toBe(30_000)
    expect(reconnectDelay(50, 0.999)).toBe(30_000)
  })

  it('adds ±25 % jitter', () => {
    expect(reconnectDelay(1, 0)).toBe(1_500)
    expect(reconnectDelay(1, 0.999_999)).toBe(2_500)
    expect(reconnectDelay(5, 0)).toBe(22_500)
  })

  it('treats negative or fractional attempts as whole attempts from 0', () => {
    expect(reconnectDelay(-3, 0.5)).toBe(1_000)
    expect(reconnectDelay(2.7, 0.5)).toBe(4_000)
  })
})
