/** TEST HELPER: calls a tool's execute the way the AI SDK does, with a call id and no history. */
import type { Tool } from 'ai'

export async function executeTool<INPUT, OUTPUT>(
  tool: Tool<INPUT, OUTPUT>,
  input: INPUT,
  options: { toolCallId?: string; abortSignal?: AbortSignal } = {},
): Promise<OUTPUT> {
  if (!tool.execute) throw new Error('The tool has no execute function.')
  const result = await tool.execute(input, {
    toolCallId: options.toolCallId ?? 'call-1',
    messages: [],
    abortSignal: options.abortSignal,
    context: {},
  })
  return result as OUTPUT
}
