import type { ExecResult } from '@sprout/devbox/devbox-driver.ts'
import { SHELL_DEFAULT_TIMEOUT_SECONDS } from '@sprout/protocol/constants.ts'
import { formatShellExecOutput } from '@sprout/protocol/tool-formats/shell-exec.ts'
import { tool } from 'ai'
import { z } from 'zod'
import type { ToolContext } from './tool-context.ts'
import { runTool } from './tool-output.ts'

/**
 * Installs and builds may ask for up to ten minutes; the default is 5 s (docs/product/limits.md).
 */
export const SHELL_MAX_TIMEOUT_SECONDS = 600
/** Bytes the dev box keeps; the model then sees at most TOOL_OUTPUT_LIMIT characters of it. */
const SHELL_OUTPUT_LIMIT_BYTES = 200_000

export const shellExecInputSchema = z.object({
  command: z.string().min(1).describe('A bash command, run in the project root'),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(SHELL_MAX_TIMEOUT_SECONDS)
    .optional()
    .describe(
      `Seconds before the command is killed; default ${SHELL_DEFAULT_TIMEOUT_SECONDS}, up to ${SHELL_MAX_TIMEOUT_SECONDS} for installs and builds`,
    ),
})
export type ShellExecInput = z.infer<typeof shellExecInputSchema>

export function formatShellExecResult(result: ExecResult, timeoutSeconds: number): string {
  return formatShellExecOutput(result, timeoutSeconds, SHELL_MAX_TIMEOUT_SECONDS)
}

export function createShellExecTool(context: ToolContext) {
  return tool({
    description:
      'Run a shell command in the project root and get its output and exit code. ' +
      `The default timeout is ${SHELL_DEFAULT_TIMEOUT_SECONDS} s; raise it for npm install or npm run build. ` +
      'Never start the dev server: it is already running with hot reload.',
    inputSchema: shellExecInputSchema,
    execute: ({ command, timeout }, { toolCallId, abortSignal }) =>
      runTool(
        context,
        async () => {
          const timeoutSeconds = timeout ?? SHELL_DEFAULT_TIMEOUT_SECONDS
          const redact = context.redactStream?.() ?? {
            push: context.redact ?? ((text: string) => text),
            flush: () => '',
          }
          const forward = (text: string) => {
            if (text) context.onToolOutput?.(toolCallId, text)
          }
          try {
            const result = await context.devbox.exec(command, {
              timeoutSeconds,
              signal: abortSignal,
              outputLimitBytes: SHELL_OUTPUT_LIMIT_BYTES,
              onOutput: (chunk) => forward(redact.push(chunk)),
            })
            return formatShellExecResult(result, timeoutSeconds)
          } finally {
            forward(redact.flush())
          }
        },
        { keep: 'end' },
      ),
  })
}
