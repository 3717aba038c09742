import type { EvaluationResult } from '@sprout/protocol/api/evaluations.ts'
import { saveBlob } from '../../lib/save-file.ts'
import { toCsv } from './evaluation-csv.ts'

const columns = [
  'conversation_id',
  'conversation_title',
  'org_slug',
  'summary',
  'processing_time_ms',
] as const

/** Export CSV: a header row of the result's fields, then one row per result. */
export function resultsCsv(results: readonly EvaluationResult[]): string {
  return toCsv(
    columns,
    results.map((result) => columns.map((column) => result[column])),
  )
}

/** Export JSON: the results as an array, each with the same fields as the CSV's columns. */
export function resultsJson(results: readonly EvaluationResult[]): string {
  const rows = results.map((result) =>
    Object.fromEntries(columns.map((column) => [column, result[column]])),
  )
  return `${JSON.stringify(rows, null, 2)}\n`
}

/** Saves text as a file through a temporary link. */
export function downloadText(fileName: string, text: string, type: string): void {
  saveBlob(new Blob([text], { type }), fileName)
}
