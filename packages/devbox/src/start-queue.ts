import os from 'node:os'

/** How a start waits its turn: `first` (a retry, it has waited already) or `background` (the pool). */
export type StartPriority = 'normal' | 'first' | 'background'

type Waiting = { key: string; priority: StartPriority; admit: () => void }

export type StartQueue = {
  /** Runs `task` once a slot is free; starts of the same `key` may wait more than once. */
  run: <T>(key: string, task: () => Promise<T>, priority?: StartPriority) => Promise<T>
  /** Starts waiting ahead of `key`'s (0: it is next), or undefined when it does not wait. */
  position: (key: string) => number | undefined
  stats: () => { running: number; waiting: number }
}

/** Box starts at once by default: one per CPU, a start being mostly one busy process. */
export function defaultStartSlots() {
  return Math.max(1, os.availableParallelism())
}

/**
 * Admits dev box starts (a provision, a reopen) at the pace the machine takes
 * (docs/architecture/devbox.md "Starts at once"): at most `slots` run, the others wait in the order
 * they came, retries first and the pool's refills after every user's start.
 */
export function createStartQueue(slots: number = defaultStartSlots()): StartQueue {
  let running = 0
  const waiting: Waiting[] = []
  const admitNext = () => {
    while (running < slots) {
      const next = waiting.shift()
      if (!next) return
      running += 1
      next.admit()
    }
  }
  const enqueue = (entry: Waiting) => {
    if (entry.priority === 'background') waiting.push(entry)
    else {
      const index = waiting.findIndex((other) =>
        entry.priority === 'first' ? other.priority !== 'first' : other.priority === 'background',
      )
      waiting.splice(index === -1 ? waiting.length : index, 0, entry)
    }
    admitNext()
  }
  return {
    run: async (key, task, priority = 'normal') => {
      await new Promise<void>((admit) => enqueue({ key, priority, admit }))
      try {
        return await task()
      } finally {
        running -= 1
        admitNext()
      }
    },
    position: (key) => {
      const index = waiting.findIndex((entry) => entry.key === key)
      return index === -1 ? undefined : index
    },
    stats: () => ({ running, waiting: waiting.length }),
  }
}
