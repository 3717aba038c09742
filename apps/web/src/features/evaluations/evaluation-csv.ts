/**
 * Export CSV (docs/product/admin.md "Conversation Evaluations tab"): RFC 4180 text. A cell starting
 * with = + - or @ gets a leading ' so spreadsheets never run it as a formula: a summary is model
 * output quoting user text.
 */
export type CsvCell = string | number | null | undefined

const formulaStart = /^[=+\-@]/
const needsQuotes = /[",\r\n]/

export function csvField(value: CsvCell): string {
  let text = value === null || value === undefined ? '' : String(value)
  if (formulaStart.test(text)) text = `'${text}`
  return needsQuotes.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** A header row and the data rows, each line ended with CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('')
}
