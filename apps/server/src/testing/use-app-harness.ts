// A test app without users: for a describe block (useTestApp) or for one test (withTestApp).
import { afterAll, beforeAll } from 'vitest'
import { createTestApp, type TestApp } from './app-harness.ts'

/** Registers the block's beforeAll and afterAll; `harness` can be read once beforeAll has run. */
export function useTestApp(environment: Record<string, string> = {}): {
  readonly harness: TestApp
} {
  let harness: TestApp | undefined
  beforeAll(async () => {
    harness = await createTestApp(environment)
  })
  afterAll(() => harness?.close())
  return {
    get harness() {
      if (!harness) throw new Error('The harness is ready once beforeAll has run')
      return harness
    },
  }
}

/** A test app of the test's own settings, closed when `run` ends. */
export async function withTestApp<Result>(
  environment: Record<string, string>,
  run: (harness: TestApp) => Promise<Result>,
): Promise<Result> {
  const harness = await createTestApp(environment)
  try {
    return await run(harness)
  } finally {
    await harness.close()
  }
}
