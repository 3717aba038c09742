import { tool } from 'ai'
import { z } from 'zod'
import type { ToolContext } from './tool-context.ts'
import { runTool, ToolError } from './tool-output.ts'

export const strReplaceInputSchema = z.object({
  path: z.string().describe('File path relative to the project root'),
  old_str: z
    .string()
    .describe('Exact text to replace, including whitespace; it must occur exactly once'),
  new_str: z.string().describe('The text to put in its place'),
})
export type StrReplaceInput = z.infer<typeof strReplaceInputSchema>

function countLines(text: string): number {
  return text.length === 0 ? 0 : text.split('\n').length
}

export function formatStrReplaceResult(input: StrReplaceInput): string {
  return `Edited ${input.path}: replaced ${countLines(input.old_str)} line(s) with ${countLines(input.new_str)} line(s).`
}

/** Replaces the single occurrence of old_str, or explains why it cannot. */
export function replaceUnique(content: string, input: StrReplaceInput): string {
  if (input.old_str.length === 0) {
    throw new ToolError('old_str is empty. Give the exact text to replace, or use write_file.')
  }
  if (input.old_str === input.new_str) {
    throw new ToolError('old_str and new_str are identical, so nothing would change.')
  }
  const first = content.indexOf(input.old_str)
  if (first === -1) {
    throw new ToolError(
      `old_str was not found in ${input.path}. View the file and copy the exact text, including whitespace and indentation.`,
    )
  }
  const occurrences = content.split(input.old_str).length - 1
  if (occurrences > 1) {
    throw new ToolError(
      `old_str matches ${occurrences} places in ${input.path}. Include more surrounding lines so that it matches exactly one.`,
    )
  }
  // Slicing instead of String.replace, which would interpret `$&` and friends in new_str.
  return content.slice(0, first) + input.new_str + content.slice(first + input.old_str.length)
}

export function createStrReplaceTool(context: ToolContext) {
  return tool({
    description:
      'Edit a file by replacing one exact, unique snippet (old_str) with new text (new_str). ' +
      'Prefer this over rewriting whole files. View the file first.',
    inputSchema: strReplaceInputSchema,
    execute: (input) =>
      runTool(
        context,
        async () => {
          const content = await context.devbox.files.read(input.path)
          await context.devbox.files.write(input.path, replaceUnique(content, input))
          return formatStrReplaceResult(input)
        },
        { target: input.path },
      ),
  })
}
