import { OutputBlock, OutputLabel } from './output-block.tsx'
import { inputString, toolOutputText } from './tool-output-text.ts'

/** write_file shows the content it wrote and its output; the other file tools their output. */
export function FileToolResult({
  toolName,
  input,
  output,
}: {
  toolName: string
  input: unknown
  output: unknown
}) {
  const text = toolOutputText(output)
  const content = toolName === 'write_file' ? inputString(input, 'content') : undefined
  return (
    <div className="flex flex-col gap-2">
      {content !== undefined && (
        <>
          <OutputLabel>Content</OutputLabel>
          <OutputBlock text={content} label="Content" />
        </>
      )}
      {content !== undefined && text !== '' && <OutputLabel>Output</OutputLabel>}
      {text !== '' && <OutputBlock text={text} />}
      {content === undefined && text === '' && (
        <p className="font-mono text-xs text-zinc-500">(no output)</p>
      )}
    </div>
  )
}
