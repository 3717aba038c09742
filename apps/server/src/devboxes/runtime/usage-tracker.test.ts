import { describe, expect, it } from 'vitest'
import { createUsageTracker } from './usage-tracker.ts'

describe('usage tracker', () => {
  const setUp = () => {
    let now = 1_000
    const usage = createUsageTracker({ idleMs: 100, now: () => now })
    return { usage, advance: (ms: number) => (now += ms) }
  }

  it('counts an application idle once nothing touched it for the idle time', () => {
    const { usage, advance } = setUp()
    expect(usage.idle(['a', 'b'])).toEqual([]) // first seen: as if used now
    advance(60)
    usage.touch('b')
    advance(40)
    expect(usage.idle(['a', 'b'])).toEqual(['a'])
    advance(60)
    expect(usage.idle(['a', 'b'])).toEqual(['a', 'b'])
  })

  it('never counts a held application idle, and a release is a use', () => {
    const { usage, advance } = setUp()
    const releaseRun = usage.hold('a')
    const releaseBuilder = usage.hold('a')
    advance(500)
    expect(usage.idle(['a'])).toEqual([])
    releaseRun()
    releaseRun() // once is enough; a second call changes nothing
    expect(usage.isHeld('a')).toBe(true)
    releaseBuilder()
    expect(usage.isHeld('a')).toBe(false)
    advance(99)
    expect(usage.idle(['a'])).toEqual([])
    advance(1)
    expect(usage.idle(['a'])).toEqual(['a'])
  })

  it('hands the uses since the last take to be written, a held application as used now', () => {
    const { usage, advance } = setUp()
    usage.touch('a')
    advance(30)
    usage.touch('b')
    const release = usage.hold('c')
    advance(20)
    expect(usage.takeUnrecorded()).toEqual(
      new Map([
        ['a', 50],
        ['b', 20],
        ['c', 0],
      ]),
    )
    // Taken once: only the holds remain, each time, until released.
    advance(500)
    expect(usage.takeUnrecorded()).toEqual(new Map([['c', 0]]))
    release()
    advance(5)
    expect(usage.takeUnrecorded()).toEqual(new Map([['c', 5]]))
    expect(usage.takeUnrecorded()).toEqual(new Map())
    usage.touch('d')
    usage.forget('d')
    expect(usage.takeUnrecorded()).toEqual(new Map())
  })
})
