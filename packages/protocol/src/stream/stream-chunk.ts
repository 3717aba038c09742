import { z } from 'zod'
import { checkReportSchema } from '../api/checks.ts'
import { chatImageSchema } from '../api/images.ts'
import { previewSelectionSchema } from '../api/preview-selections.ts'

/**
 * The stream events Sprout stores per conversation and sends over SSE: the AI SDK v7 UI message
 * chunks the chat uses, plus Sprout's own `data-*` chunks. Fields not listed here (e.g.
 * providerMetadata) are dropped on parse. See docs/architecture/stream-protocol.md.
 */

const partId = z.string()

/** The blocks reducer's client-side actions use this prefix; no stream chunk may. */
export const LOCAL_ACTION_PREFIX = 'local-'

export const startChunkSchema = z.object({
  type: z.literal('start'),
  messageId: z.string().optional(),
})
export const finishChunkSchema = z.object({
  type: z.literal('finish'),
  finishReason: z.string().optional(),
})
export const abortChunkSchema = z.object({
  type: z.literal('abort'),
  reason: z.string().optional(),
})
export const startStepChunkSchema = z.object({ type: z.literal('start-step') })
export const finishStepChunkSchema = z.object({ type: z.literal('finish-step') })

export const textStartChunkSchema = z.object({ type: z.literal('text-start'), id: partId })
export const textDeltaChunkSchema = z.object({
  type: z.literal('text-delta'),
  id: partId,
  delta: z.string(),
})
export const textEndChunkSchema = z.object({ type: z.literal('text-end'), id: partId })

export const reasoningStartChunkSchema = z.object({
  type: z.literal('reasoning-start'),
  id: partId,
})
export const reasoningDeltaChunkSchema = z.object({
  type: z.literal('reasoning-delta'),
  id: partId,
  delta: z.string(),
})
export const reasoningEndChunkSchema = z.object({ type: z.literal('reasoning-end'), id: partId })

export const toolInputStartChunkSchema = z.object({
  type: z.literal('tool-input-start'),
  toolCallId: z.string(),
  toolName: z.string(),
})
export const toolInputDeltaChunkSchema = z.object({
  type: z.literal('tool-input-delta'),
  toolCallId: z.string(),
  inputTextDelta: z.string(),
})
export const toolInputAvailableChunkSchema = z.object({
  type: z.literal('tool-input-available'),
  toolCallId: z.string(),
  toolName: z.string(),
  input: z.unknown(),
})
/** The model produced input that failed the tool's schema. */
export const toolInputErrorChunkSchema = z.object({
  type: z.literal('tool-input-error'),
  toolCallId: z.string(),
  toolName: z.string(),
  input: z.unknown(),
  errorText: z.string(),
})
export const toolOutputAvailableChunkSchema = z.object({
  type: z.literal('tool-output-available'),
  toolCallId: z.string(),
  output: z.unknown(),
  /** A progress output; the final one follows. */
  preliminary: z.boolean().optional(),
})
export const toolOutputErrorChunkSchema = z.object({
  type: z.literal('tool-output-error'),
  toolCallId: z.string(),
  errorText: z.string(),
})
export const errorChunkSchema = z.object({ type: z.literal('error'), errorText: z.string() })

const dataChunk = <Type extends string, Data extends z.ZodType>(type: Type, data: Data) =>
  z.object({ type: z.literal(type), id: z.string().optional(), data })

export const tokenUsageSchema = z.object({
  inputTokens: z.number(),
  cacheReadTokens: z.number(),
  outputTokens: z.number(),
  used: z.number(),
  limit: z.number(),
  percentage: z.number(),
})
export type TokenUsage = z.infer<typeof tokenUsageSchema>

export const dataUsageChunkSchema = dataChunk('data-usage', tokenUsageSchema)

/**
 * The user's message as stored; `clientId` lets the sending tab drop its own echo. A repair
 * turn's message (the check's problems) is the agent's own: `repair` carries its title
 * ('Fixing 2 type errors…', docs/product/checks.md "One repair").
 */
export const dataUserMessageChunkSchema = dataChunk(
  'data-user-message',
  z.object({
    id: z.string(),
    text: z.string(),
    clientId: z.string().optional(),
    repair: z.object({ title: z.string() }).optional(),
    /** Images sent with it (docs/product/images.md). */
    images: z.array(chatImageSchema).optional(),
    /** Elements pointed at in the preview (docs/product/builder.md "Select mode"). */
    selections: z.array(previewSelectionSchema).optional(),
  }),
)

/** A check's report, sent as it runs and when done; `id` is the check's id (the block's). */
export const dataChecksChunkSchema = dataChunk('data-checks', checkReportSchema)

/** A chat error; errorType is one of chatErrorTypes (tool-formats/error-text.ts) or absent. */
export const dataErrorChunkSchema = dataChunk(
  'data-error',
  z.object({ error: z.string(), errorType: z.string().optional() }),
)

export const dataCompactionChunkSchema = dataChunk(
  'data-compaction',
  z.object({ status: z.enum(['started', 'done']) }),
)

/** Output a running tool (shell_exec) streams before its final output. */
export const dataToolOutputDeltaChunkSchema = dataChunk(
  'data-tool-output-delta',
  z.object({ toolCallId: z.string(), delta: z.string() }),
)

export const stagedStatusSchema = z.enum(['sent', 'unsent'])
export const dataStagedChunkSchema = dataChunk(
  'data-staged',
  z.object({ id: z.string(), status: stagedStatusSchema, text: z.string() }),
)

export const runStatusSchema = z.enum(['running', 'finished', 'failed', 'interrupted'])
export type RunStatus = z.infer<typeof runStatusSchema>
export const dataRunChunkSchema = dataChunk(
  'data-run',
  z.object({ runId: z.string(), status: runStatusSchema }),
)

export const knownStreamChunkSchema = z.discriminatedUnion('type', [
  startChunkSchema,
  finishChunkSchema,
  abortChunkSchema,
  startStepChunkSchema,
  finishStepChunkSchema,
  textStartChunkSchema,
  textDeltaChunkSchema,
  textEndChunkSchema,
  reasoningStartChunkSchema,
  reasoningDeltaChunkSchema,
  reasoningEndChunkSchema,
  toolInputStartChunkSchema,
  toolInputDeltaChunkSchema,
  toolInputAvailableChunkSchema,
  toolInputErrorChunkSchema,
  toolOutputAvailableChunkSchema,
  toolOutputErrorChunkSchema,
  errorChunkSchema,
  dataUsageChunkSchema,
  dataUserMessageChunkSchema,
  dataErrorChunkSchema,
  dataCompactionChunkSchema,
  dataToolOutputDeltaChunkSchema,
  dataStagedChunkSchema,
  dataRunChunkSchema,
  dataChecksChunkSchema,
])
export type KnownStreamChunk = z.infer<typeof knownStreamChunkSchema>
export type KnownStreamChunkType = KnownStreamChunk['type']

export const knownStreamChunkTypes: ReadonlySet<string> = new Set(
  knownStreamChunkSchema.options.map((option) => option.shape.type.value),
)

/**
 * Any other chunk type (e.g. Anthropic's `custom`, `source-url`, `message-metadata`) is kept
 * and stored as is so that nothing is lost, and the reducer ignores it. A known type with a
 * malformed body is rejected instead.
 */
export const unknownStreamChunkSchema = z.looseObject({
  type: z
    .string()
    .refine((type) => !knownStreamChunkTypes.has(type), {
      message: 'Known chunk types must match their schema',
    })
    .refine((type) => !type.startsWith(LOCAL_ACTION_PREFIX), {
      message: `Chunk types starting with "${LOCAL_ACTION_PREFIX}" are reserved for the client`,
    }),
})
export type UnknownStreamChunk = z.infer<typeof unknownStreamChunkSchema>

export const streamChunkSchema = z.union([knownStreamChunkSchema, unknownStreamChunkSchema])
export type StreamChunk = KnownStreamChunk | UnknownStreamChunk

export function isKnownStreamChunk(chunk: { type: string }): chunk is KnownStreamChunk {
  return knownStreamChunkTypes.has(chunk.type)
}
