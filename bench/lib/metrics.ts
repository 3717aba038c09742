// Machine-readable figures next to the printed ones, so `npm run bench -- --compare` can hold
// them against bench/baseline.json.

export type Better = 'lower' | 'higher'

export type Metric = {
  /** Stable across runs: the key in the baseline (iteration counts go in `basis`, not here). */
  name: string
  value: number
  /** ms, MiB, %, × … */
  unit: string
  better: Better
  /** What the figure was computed over, e.g. `n=10` or `10 s at 50 connections`. */
  basis: string
}

export type BenchResult = { figures: Record<string, string>; metrics: Metric[] }

export type BenchOptions = {
  /** Fewer iterations and only the compared figures: used by `--compare`. */
  quick: boolean
}

export type Benchmark = (options: BenchOptions) => Promise<BenchResult>

export const fullRun: BenchOptions = { quick: false }

export function metric(
  name: string,
  value: number,
  unit: string,
  better: Better,
  basis: string,
): Metric {
  return { name, value, unit, better, basis }
}
