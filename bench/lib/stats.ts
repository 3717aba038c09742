/** The q-quantile (0..1) of a list of numbers, nearest-rank. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[index] ?? Number.NaN
}

export const milliseconds = (value: number) => `${Math.round(value)} ms`

/** `p50 / p95` in milliseconds, as the figures print them. */
export const p50AndP95 = (values: number[]) =>
  `${milliseconds(quantile(values, 0.5))} / ${milliseconds(quantile(values, 0.95))}`
