import { OutputBlock } from './output-block.tsx'
import { toolOutputText } from './tool-output-text.ts'

export const SERVER_LOGS_EMPTY_TEXT = '(no output)'

/** server_logs' output: the dev server's last lines in a monospace block, or '(no output)'. */
export function ServerLogsView({ output }: { output: unknown }) {
  const text = toolOutputText(output)
  if (text.trim() === '' || text.trim() === SERVER_LOGS_EMPTY_TEXT) {
    return (
      <p data-testid="server-logs" className="font-mono text-xs text-zinc-500">
        {SERVER_LOGS_EMPTY_TEXT}
      </p>
    )
  }
  return (
    <div data-testid="server-logs">
      <OutputBlock text={text} />
    </div>
  )
}
