/**
 * docs/product/tool-calls.md "Agent tool view of errors": one error group as error_reports_list
 * shows it.
 */
export interface ErrorReport {
  groupId: string
  /** From the 'Seen:' line, e.g. '5m ago'. */
  timeSince: string
  url: string
  error: string
  stacktrace: string[]
}

/**
 * error_reports_list's output: per group an `<error_report group_id="…">` block of `Seen:`, `URL:`,
 * `Error:` and `Stack:` lines (the stack's frames one a line).
 */
export function formatErrorReports(reports: ErrorReport[]): string {
  return reports
    .map((report) =>
      [
        `<error_report group_id="${report.groupId}">`,
        `Seen: ${report.timeSince}`,
        `URL: ${report.url}`,
        `Error: ${report.error.replace(/\s*\n\s*/g, ' ')}`,
        ...(report.stacktrace.length > 0 ? ['Stack:', ...report.stacktrace] : []),
        '</error_report>',
      ].join('\n'),
    )
    .join('\n')
}

const blockPattern = /<error_report\s+group_id="([^"]+)"\s*>([\s\S]*?)<\/error_report>/g

/** Blocks without a group id are skipped; missing lines are empty. */
export function parseErrorReports(text: string): ErrorReport[] {
  return [...text.replace(/\r\n?/g, '\n').matchAll(blockPattern)].map((match) => {
    const lines = (match[2] ?? '').split('\n')
    const field = (name: string) =>
      lines
        .find((line) => line.startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim() ?? ''
    const stackStart = lines.findIndex((line) => line.trim() === 'Stack:')
    const stacktrace =
      stackStart === -1
        ? []
        : lines
            .slice(stackStart + 1)
            .map((line) => line.trim())
            .filter((line) => line !== '')
    return {
      groupId: match[1] ?? '',
      timeSince: field('Seen'),
      url: field('URL'),
      error: field('Error'),
      stacktrace,
    }
  })
}
