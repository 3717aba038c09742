import type { AgentChunk } from './agent-chunk.ts'

/**
 * Orders streamed tool output after its tool call: a command can print before the UI stream has
 * passed on the `tool-input-available` chunk that announces it, so output waits until then.
 */
export function createToolOutputRelay(emit: (chunk: AgentChunk) => Promise<void>) {
  const announced = new Set<string>()
  const held = new Map<string, string[]>()
  const deltaChunk = (toolCallId: string, delta: string): AgentChunk => ({
    type: 'data-tool-output-delta',
    data: { toolCallId, delta },
  })
  return {
    /** The tools' `onToolOutput`. */
    forward(toolCallId: string, delta: string) {
      if (announced.has(toolCallId)) {
        emit(deltaChunk(toolCallId, delta)).catch(() => {})
      } else {
        held.set(toolCallId, [...(held.get(toolCallId) ?? []), delta])
      }
    },
    /** Called once the tool call's chunk has been emitted. */
    async announce(toolCallId: string) {
      announced.add(toolCallId)
      for (const delta of held.get(toolCallId) ?? []) await emit(deltaChunk(toolCallId, delta))
      held.delete(toolCallId)
    },
  }
}
