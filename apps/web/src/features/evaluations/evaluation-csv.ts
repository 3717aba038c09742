/**
 * docs/product/admin.md "Conversation Evaluations tab": Export CSV writes RFC 4180 text (CRLF line
 * ends, fields quoted when they hold a comma, a quote or a line break, quotes doubled). A cell that
 * starts with = + - or @ is prefixed with ' so a spreadsheet shows it as text and never runs it as a
 * formula (a summary is model output quoting user text).
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
