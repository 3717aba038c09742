import { parseShellExecOutput } from '@sprout/protocol/tool-formats/shell-exec.ts'
import { OutputBlock } from './output-block.tsx'
import { toolOutputText } from './tool-output-text.ts'

export const SHELL_RUNNING_TEXT = 'running...'
export const SHELL_NO_OUTPUT_TEXT = '(no output)'

/**
 * shell_exec's output: what it printed so far while running; once done, the output alone
 * ('(no output)' when empty), the exit code only when it is not 0, and a timeout, interrupt or
 * truncation note.
 */
export function ShellResult({ output, isStreaming }: { output: unknown; isStreaming: boolean }) {
  const text = toolOutputText(output)
  const parsed = isStreaming
    ? { output: text, exitCode: undefined, notes: [] }
    : parseShellExecOutput(text)
  const failed = parsed.exitCode !== undefined && parsed.exitCode !== 0
  return (
    <div className="flex flex-col gap-1">
      {parsed.output.trim() === '' ? (
        <p className="font-mono text-xs text-zinc-500">
          {isStreaming ? SHELL_RUNNING_TEXT : SHELL_NO_OUTPUT_TEXT}
        </p>
      ) : (
        <OutputBlock text={parsed.output} />
      )}
      {(failed || parsed.notes.length > 0) && (
        <p className="font-mono text-xs text-zinc-500">
          {failed && <span className="text-red-600">exit code {parsed.exitCode}</span>}
          {parsed.notes.map((note) => (
            <span key={note} className="block">
              {note}
            </span>
          ))}
        </p>
      )}
    </div>
  )
}
