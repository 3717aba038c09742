import { spentCost } from './results-table.ts'
import type { AppSpec } from './spec-format.ts'
import { type SpecResult, skippedResult } from './spec-result.ts'

/**
 * Runs the specs, at most `concurrency` at once, in order of their files; once the cost of the
 * finished ones reaches `maxCost`, no further spec starts (those running finish) and the rest are
 * skipped. Answers the results in the specs' order.
 */
export async function runSpecs(
  specs: AppSpec[],
  options: { concurrency: number; maxCost: number | undefined; signal: AbortSignal },
  runOne: (spec: AppSpec) => Promise<SpecResult>,
  onResult: (result: SpecResult) => void = () => undefined,
): Promise<{
  results: SpecResult[]
  budgetStop: { maxCostUsd: number; spentUsd: number } | undefined
}> {
  const results: (SpecResult | undefined)[] = specs.map(() => undefined)
  let next = 0
  let budgetStop: { maxCostUsd: number; spentUsd: number } | undefined
  const finished = () => results.filter((result): result is SpecResult => result !== undefined)
  const worker = async () => {
    for (;;) {
      const index = next++
      const spec = specs[index]
      if (!spec) return
      const spent = spentCost(finished()) ?? 0
      let result: SpecResult
      if (options.signal.aborted) {
        result = skippedResult(spec, 'the evaluation was stopped')
      } else if (options.maxCost !== undefined && spent >= options.maxCost) {
        budgetStop = { maxCostUsd: options.maxCost, spentUsd: spent }
        result = skippedResult(spec, `not started: the budget (--max-cost) was spent`)
      } else {
        result = await runOne(spec)
      }
      results[index] = result
      onResult(result)
    }
  }
  const workers = Math.max(1, Math.min(options.concurrency, specs.length))
  await Promise.all(Array.from({ length: workers }, worker))
  return { results: finished(), budgetStop }
}
