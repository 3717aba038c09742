/** Runs at most `slots` of the given tasks at once, the rest in the order they came. */
export function createLimiter(slots: number) {
  let running = 0
  const waiting: (() => void)[] = []
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve))
    running += 1
    try {
      return await task()
    } finally {
      running -= 1
      waiting.shift()?.()
    }
  }
}

export type Limiter = ReturnType<typeof createLimiter>
