// Issue 29: fifty new apps at once on 2 cores started fifty dev boxes together and 49 never
// answered. Starts are admitted a few at a time (docs/architecture/devbox.md "Starts at once").
import { describe, expect, it } from 'vitest'
import { createStartQueue, defaultStartSlots } from './start-queue.ts'

/** A start that ends when the test says so. */
function controlledStart() {
  let finish: (fail?: Error) => void = () => undefined
  let started = false
  const run = () => {
    started = true
    return new Promise<string>((resolve, reject) => {
      finish = (fail) => (fail ? reject(fail) : resolve('done'))
    })
  }
  return {
    run,
    finish: (fail?: Error) => finish(fail),
    get started() {
      return started
    },
  }
}

/** Lets the queue's promise callbacks run (admission happens in them). */
const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('start queue', () => {
  it('runs at most `slots` starts, the others in the order they came, with positions that move up', async () => {
    const queue = createStartQueue(2)
    const starts = Array.from({ length: 5 }, () => controlledStart())
    const done = starts.map((start, index) => queue.run(`app-${index}`, start.run))
    await settle()
    expect(starts.map((start) => start.started)).toEqual([true, true, false, false, false])
    expect(queue.stats()).toEqual({ running: 2, waiting: 3 })
    expect(queue.position('app-0')).toBeUndefined()
    expect(['app-2', 'app-3', 'app-4'].map(queue.position)).toEqual([0, 1, 2])

    starts[1]?.finish()
    await settle()
    expect(starts.map((start) => start.started)).toEqual([true, true, true, false, false])
    expect(['app-3', 'app-4'].map(queue.position)).toEqual([0, 1])

    for (const start of starts) {
      start.finish()
      await settle()
    }
    expect(await Promise.all(done)).toEqual(['done', 'done', 'done', 'done', 'done'])
    expect(queue.stats()).toEqual({ running: 0, waiting: 0 })
  })

  it('frees the slot of a failed start, and its retry goes before those that came later', async () => {
    const queue = createStartQueue(1)
    const failing = controlledStart()
    const first = queue.run('app-a', failing.run)
    const later = controlledStart()
    const laterDone = queue.run('app-b', later.run)
    await settle()
    failing.finish(new Error('The dev server of box a did not start'))
    await expect(first).rejects.toThrow('did not start')
    await settle()
    expect(later.started).toBe(true)

    // The retry waits behind the running start only, ahead of a newcomer.
    const retry = controlledStart()
    const retryDone = queue.run('app-a', retry.run, 'first')
    const newcomer = controlledStart()
    const newcomerDone = queue.run('app-c', newcomer.run)
    await settle()
    expect(queue.position('app-a')).toBe(0)
    expect(queue.position('app-c')).toBe(1)
    later.finish()
    await settle()
    expect(retry.started).toBe(true)
    expect(newcomer.started).toBe(false)
    retry.finish()
    await settle()
    newcomer.finish()
    expect(await Promise.all([laterDone, retryDone, newcomerDone])).toEqual([
      'done',
      'done',
      'done',
    ])
  })

  it('starves no one: newcomers never pass an earlier start, and the pool refills once users are served', async () => {
    const queue = createStartQueue(1)
    const starts = new Map<string, ReturnType<typeof controlledStart>>()
    const enqueue = (key: string, priority?: 'background') => {
      const start = controlledStart()
      starts.set(key, start)
      void queue.run(key, start.run, priority)
    }
    const finish = async (key: string) => {
      starts.get(key)?.finish()
      await settle()
    }
    enqueue('app-0')
    enqueue('pool-box', 'background')
    enqueue('app-1')
    await settle()
    // The pool's refill goes after every user's start, whenever it came.
    expect(queue.position('app-1')).toBe(0)
    expect(queue.position('pool-box')).toBe(1)

    // A stream of newcomers, one per start that ends: each waits behind every earlier one.
    for (let round = 0; round < 5; round += 1) {
      enqueue(`app-${round + 2}`)
      await settle()
      expect(queue.position(`app-${round + 1}`)).toBe(0)
      expect(queue.position(`app-${round + 2}`)).toBe(1)
      expect(queue.position('pool-box')).toBe(2)
      await finish(`app-${round}`)
      expect(starts.get(`app-${round + 1}`)?.started).toBe(true)
      expect(queue.stats()).toEqual({ running: 1, waiting: 2 })
    }
    // The users stop coming: the last of them runs, then the refill.
    await finish('app-5')
    await finish('app-6')
    expect(starts.get('pool-box')?.started).toBe(true)
    await finish('pool-box')
    expect(queue.stats()).toEqual({ running: 0, waiting: 0 })
  })

  it('admits one start per CPU by default', () => {
    expect(defaultStartSlots()).toBeGreaterThanOrEqual(1)
  })
})
