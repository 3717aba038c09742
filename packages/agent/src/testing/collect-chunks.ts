/** TEST HELPER: collects the chunks runAgent emits, with a few finders. */
import type { AgentChunk } from '../agent-chunk.ts'

export type ChunkLog = {
  chunks: AgentChunk[]
  onChunk: (chunk: AgentChunk) => void
  types: () => string[]
  ofType: <TYPE extends AgentChunk['type']>(type: TYPE) => Extract<AgentChunk, { type: TYPE }>[]
  text: () => string
}

export function collectChunks(): ChunkLog {
  const chunks: AgentChunk[] = []
  const ofType = <TYPE extends AgentChunk['type']>(type: TYPE) =>
    chunks.filter((chunk): chunk is Extract<AgentChunk, { type: TYPE }> => chunk.type === type)
  return {
    chunks,
    onChunk: (chunk) => {
      chunks.push(chunk)
    },
    types: () => chunks.map((chunk) => chunk.type),
    ofType,
    text: () =>
      ofType('text-delta')
        .map((chunk) => chunk.delta)
        .join(''),
  }
}
