// Applications created one after the other from a warm pool, as the creation benchmarks measure.
import { type BenchServer, createAndWait, waitForPool } from './product-server.ts'

export type Creation = Awaited<ReturnType<typeof createAndWait>>

/**
 * Creates `count` applications, each once the pool is full again, and hands each to `measure`;
 * all but the last are deleted again. Returns the create → editor-ready times and the last one.
 */
export async function createFromWarmPool(
  warm: BenchServer,
  token: string,
  count: number,
  measure: (created: Creation) => Promise<void>,
): Promise<{ readyTimes: number[]; kept: Creation }> {
  const readyTimes: number[] = []
  let kept: Creation | undefined
  for (let index = 0; index < count; index++) {
    await waitForPool(warm)
    const created = await createAndWait(warm, token)
    readyTimes.push(created.readyMs)
    await measure(created)
    if (index === count - 1) kept = created
    else await warm.call(`/api/applications/${created.id}`, { method: 'DELETE', token })
  }
  if (!kept) throw new Error('no application kept')
  return { readyTimes, kept }
}
