import type { CheckReport } from '@sprout/protocol/api/checks.ts'
import { CHECK_TEXTS } from '@sprout/protocol/api/checks.ts'
import { formatCheckProblems } from '@sprout/protocol/text/check-problems.ts'
import { tool } from 'ai'
import { z } from 'zod'
import type { ToolContext } from './tool-context.ts'
import { ToolError } from './tool-output.ts'

export const runChecksInputSchema = z.object({})

/** What the model reads of a check: its problems, compactly, or that all passed. */
export function checkReportForModel(report: CheckReport): string {
  if (report.state === 'passed') return `${CHECK_TEXTS.passed}.`
  if (report.state === 'interrupted') return CHECK_TEXTS.interrupted
  return formatCheckProblems(report).replace('The check after the last run', 'The check')
}

/**
 * docs/product/checks.md "run_checks": the same check as after a run, during it. The chat shows
 * the report (the tool's output); the model reads its problems as text.
 */
export function createRunChecksTool(context: ToolContext) {
  return tool({
    description:
      "Check the app: its type check (tsc), a production build of client and server, the server's " +
      'GET /api/health, and errors new since this run started. Takes up to a minute. Run it after ' +
      'a change you are unsure of, and before you say the app works.',
    inputSchema: runChecksInputSchema,
    execute: async (_input, { abortSignal }) => {
      const checks = context.checks
      if (!checks) throw new ToolError('Checks are not available in this conversation.')
      try {
        return await checks.run(abortSignal)
      } catch (error) {
        throw new ToolError(error instanceof Error ? error.message : String(error))
      }
    },
    toModelOutput: ({ output }) => ({
      type: 'text',
      value: context.redact
        ? context.redact(checkReportForModel(output))
        : checkReportForModel(output),
    }),
  })
}
