import type {
  dataCompactionChunkSchema,
  dataErrorChunkSchema,
  dataToolOutputDeltaChunkSchema,
  dataUsageChunkSchema,
} from '@sprout/protocol/stream/stream-chunk.ts'
import type { UIMessageChunk } from 'ai'
import type { z } from 'zod'

/**
 * A classified chat error (docs/product/error-texts.md), sent instead of the SDK's bare `error` chunk.
 */
export type DataErrorChunk = z.infer<typeof dataErrorChunkSchema>
export type DataUsageChunk = z.infer<typeof dataUsageChunkSchema>
/** Output of a running tool (shell_exec), streamed before its result is available. */
export type DataToolOutputDeltaChunk = z.infer<typeof dataToolOutputDeltaChunkSchema>
export type DataCompactionChunk = z.infer<typeof dataCompactionChunkSchema>

/**
 * Everything `runAgent` hands to `onChunk`: the AI SDK's UI chunks (never its bare `error`) plus
 * the `data-*` chunks of docs/architecture/stream-protocol.md.
 */
export type AgentChunk =
  | Exclude<UIMessageChunk, { type: 'error' }>
  | DataErrorChunk
  | DataUsageChunk
  | DataToolOutputDeltaChunk
  | DataCompactionChunk
