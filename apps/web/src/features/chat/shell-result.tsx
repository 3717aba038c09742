import { OutputBlock } from './output-block.tsx'
import { toolOutputText } from './tool-output-text.ts'

export const SHELL_RUNNING_TEXT = 'running...'
export const SHELL_NO_OUTPUT_TEXT = '(no output)'

/** shell_exec's output: what it printed so far while running, '(no output)' when empty. */
export function ShellResult({ output, isStreaming }: { output: unknown; isStreaming: boolean }) {
  const text = toolOutputText(output)
  if (text.trim() === '') {
    return (
      <p className="font-mono text-xs text-zinc-500">
        {isStreaming ? SHELL_RUNNING_TEXT : SHELL_NO_OUTPUT_TEXT}
      </p>
    )
  }
  return <OutputBlock text={text} />
}
