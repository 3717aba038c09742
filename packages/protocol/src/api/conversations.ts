import { z } from 'zod'
import { stagedStatusSchema } from '../stream/stream-chunk.ts'
import { messageImagesSchema } from './images.ts'
import { idText, MODEL_ID_MAX, maxText, TOKEN_MAX } from './input-limits.ts'
import { messageSelectionsSchema } from './preview-selections.ts'

// Payloads of the chat calls (docs/product/api.md): builder conversations under
// /api/demo/applications/{id}/… and explorations under /api/explorations/….

export const CHAT_MESSAGE_MAX = 100_000
export const CLIENT_ID_MAX = 200

const messageText = z
  .string()
  .max(CHAT_MESSAGE_MAX, `must be at most ${CHAT_MESSAGE_MAX} characters`)
  .transform((text) => text.trim())
  .refine((text) => text.length > 0, 'must not be empty')
const clientId = z.string().min(1).max(CLIENT_ID_MAX, maxText(CLIENT_ID_MAX)).optional()
const modelId = z.string().min(1, 'must not be empty').max(MODEL_ID_MAX, maxText(MODEL_ID_MAX))

/** docs/product/builder.md "Conversation list"; times are ISO 8601. */
export const conversationSchema = z.object({
  id: z.string(),
  title: z.string(),
  created: z.string(),
  updated: z.string(),
  last_message_at: z.string().nullable(),
  active_model: z.string(),
})
export type Conversation = z.infer<typeof conversationSchema>

/** GET …/conversations: newest first, at most CONVERSATIONS_PAGE_SIZE. */
export const conversationListSchema = z.array(conversationSchema)

/** POST …/message. Without conversation_id a new conversation is started. */
export const sendMessageRequestSchema = z.object({
  message: messageText,
  model: modelId,
  conversation_id: idText().optional(),
  /** The sending tab's id: the data-user-message echo carries it so the tab can drop it. */
  client_id: clientId,
  /** Uploaded images (POST /api/images) sent with the message (docs/product/images.md). */
  images: messageImagesSchema,
  /** Elements pointed at in the preview (docs/product/builder.md "Select mode"). */
  selections: messageSelectionsSchema,
})
export type SendMessageRequest = z.input<typeof sendMessageRequestSchema>

export const sendMessageResponseSchema = conversationSchema.extend({
  conversation_id: z.string(),
  run_id: z.string(),
})
export type SendMessageResponse = z.infer<typeof sendMessageResponseSchema>

/** POST …/stage-message: queued while a run is active, answered when taken or handed back. */
export const stageMessageRequestSchema = z.object({
  message: messageText,
  conversation_id: idText(),
  /** The id of the web's local-stage action; data-staged answers carry it as their id. */
  client_id: clientId,
})
export type StageMessageRequest = z.input<typeof stageMessageRequestSchema>

export const stageMessageResponseSchema = z.object({ status: stagedStatusSchema })

/** Query of interrupt, continue and listen. */
export const conversationQuerySchema = z.object({ conversation_id: idText() })

/** DELETE …/stage-message: Escape takes a queued message back unless the run already took it. */
export const cancelStagedQuerySchema = z.object({
  conversation_id: idText(),
  client_id: z.string().min(1).max(CLIENT_ID_MAX, maxText(CLIENT_ID_MAX)),
})

export const interruptResponseSchema = z.object({ interrupted: z.boolean() })

/** POST …/continue: a new run over the stored history; the model defaults to the last one. */
export const continueRequestSchema = z.object({ model: modelId.optional() })
export const continueResponseSchema = z.object({ conversation_id: z.string(), run_id: z.string() })

/** GET …/listen: `token` is a JWT from GET /api/auth/token; resume after `last_event_id`. */
export const listenQuerySchema = z.object({
  conversation_id: idText(),
  token: z.string().min(1).max(TOKEN_MAX, maxText(TOKEN_MAX)).optional(),
  last_event_id: z.coerce.number().int().nonnegative().optional(),
})

/** POST /api/explorations: a message starts the first run at once. */
export const createExplorationRequestSchema = z.object({
  message: messageText.optional(),
  model: modelId.optional(),
  client_id: clientId,
  images: messageImagesSchema,
})
export const createExplorationResponseSchema = z.object({
  id: z.string(),
  title: z.string(),
  run_id: z.string().optional(),
})

export const explorationMessageRequestSchema = z.object({
  message: messageText,
  model: modelId,
  client_id: clientId,
  images: messageImagesSchema,
})
export type ExplorationMessageRequest = z.input<typeof explorationMessageRequestSchema>
export const explorationMessageResponseSchema = z.object({
  id: z.string(),
  title: z.string(),
  run_id: z.string(),
})

/** POST /api/explorations/{id}/listen (SSE over fetch): resume after `last_event_id`. */
export const explorationListenRequestSchema = z.object({
  last_event_id: z.number().int().nonnegative().optional(),
})

/** GET /api/explorations/{id}: `summary` is the idea as last summarised, to prefill a new app. */
export const explorationSchema = z.object({
  id: z.string(),
  title: z.string(),
  active_model: z.string(),
  created: z.string(),
  updated: z.string(),
  summary: z.string().optional(),
})
export type Exploration = z.infer<typeof explorationSchema>
