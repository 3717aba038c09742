import { OutputBlock, OutputLabel } from './output-block.tsx'
import { ToolError } from './tool-error.tsx'
import { toolOutputText } from './tool-output-text.ts'

/** An unknown tool: its name, its input as JSON, and its output or error. */
export function DefaultToolView({
  toolName,
  input,
  output,
  isError,
}: {
  toolName: string
  input: unknown
  output: unknown
  isError: boolean
}) {
  const text = toolOutputText(output)
  return (
    <div data-testid="default-tool-view" className="flex flex-col gap-2">
      <p className="font-mono text-xs font-semibold text-zinc-700">{toolName}</p>
      <OutputLabel>Input</OutputLabel>
      <OutputBlock text={JSON.stringify(input ?? null, null, 2) ?? 'null'} label="Input" />
      {isError ? (
        <ToolError text={text} />
      ) : (
        text !== '' && (
          <>
            <OutputLabel>Output</OutputLabel>
            <OutputBlock text={text} />
          </>
        )
      )}
    </div>
  )
}
