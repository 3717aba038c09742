import { z } from 'zod'
import {
  CONVERSATIONS_PAGE_SIZE,
  DEFAULT_EVALUATION_TEMPLATE,
  EVALUATION_CONCURRENCY_DEFAULT,
  EVALUATION_CONCURRENCY_MAX,
  EVALUATION_CONCURRENCY_MIN,
} from '../constants.ts'
import { CURSOR_MAX, ID_MAX, idText, MODEL_ID_MAX, maxText } from './input-limits.ts'

// Payloads of the admin's conversation list and conversation evaluations (docs/product/admin.md
// "Conversation Evaluations tab", docs/product/api.md). Platform admins only; times are ISO 8601.

/** docs/product/admin.md "How an evaluation runs". */
export const evaluationStatuses = ['pending', 'in_progress', 'completed', 'failed'] as const
export const evaluationStatusSchema = z.enum(evaluationStatuses)
export type EvaluationStatus = z.infer<typeof evaluationStatusSchema>

export const evaluationItemStatuses = ['pending', 'in_progress', 'complete', 'failed'] as const
export const evaluationItemStatusSchema = z.enum(evaluationItemStatuses)
export type EvaluationItemStatus = z.infer<typeof evaluationItemStatusSchema>

/** The most conversations one evaluation takes (Sprout's choice). */
export const EVALUATION_CONVERSATIONS_MAX = 1_000
export const CUSTOM_PROMPT_MAX = 20_000

/** The templates an evaluation can use; their prompt texts live on the server. */
export const evaluationTemplates = [
  {
    name: DEFAULT_EVALUATION_TEMPLATE,
    description:
      'Where the user met friction (corrections, retries, tool and environment failures, missing secrets, loops), the outcome, and a markdown summary.',
  },
  {
    name: 'eval_tool_failures',
    description:
      'Every failing tool call and command: what failed, why, whether the agent recovered, and what would have prevented it.',
  },
  {
    name: 'eval_cost_and_length',
    description:
      'Tokens, turns, duration and compactions: where the conversation spent its budget and what was wasted.',
  },
  {
    name: 'eval_outcome',
    description:
      "Whether the user got what they asked for: the request, what was built, what is missing, and the user's apparent satisfaction.",
  },
] as const
export type EvaluationTemplateName = (typeof evaluationTemplates)[number]['name']
export const evaluationTemplateNames = evaluationTemplates.map((template) => template.name)

export const promptTemplateSchema = z.object({ name: z.string(), description: z.string() })
export type PromptTemplate = z.infer<typeof promptTemplateSchema>
/** `GET /api/admin/conversation-evals/prompts`. */
export const promptTemplateListSchema = z.array(promptTemplateSchema)

/**
 * The admin view of a builder conversation, from any organization. `org.name` is what screens show:
 * the organization's name, or for a personal one its owner's, e.g. 'Ada Admin (personal)'.
 */
export const adminConversationSchema = z.object({
  id: z.string(),
  title: z.string(),
  org: z.object({ slug: z.string(), name: z.string() }),
  app: z.object({ name: z.string() }).nullable(),
  message_count: z.number().int(),
  created_at: z.string(),
})
export type AdminConversation = z.infer<typeof adminConversationSchema>

/** `GET /api/admin/conversations`: newest first; `next_cursor` null on the last page. */
export const adminConversationListSchema = z.object({
  conversations: z.array(adminConversationSchema),
  next_cursor: z.string().nullable(),
})
export type AdminConversationList = z.infer<typeof adminConversationListSchema>

export const adminConversationsQuerySchema = z.object({
  cursor: z.string().min(1).max(CURSOR_MAX, maxText(CURSOR_MAX)).optional(),
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(CONVERSATIONS_PAGE_SIZE, `must be at most ${CONVERSATIONS_PAGE_SIZE}`)
    .default(CONVERSATIONS_PAGE_SIZE),
})
export type AdminConversationsQuery = z.output<typeof adminConversationsQuerySchema>

/** Validation texts, shared by the server's answers and the configure dialog. */
export const evaluationMessages = {
  concurrentLimit: `Concurrent limit must be a number from ${EVALUATION_CONCURRENCY_MIN} to ${EVALUATION_CONCURRENCY_MAX}`,
  customPromptRequired: 'A custom prompt is required',
  customPromptTooLong: `The custom prompt must be at most ${CUSTOM_PROMPT_MAX} characters`,
  noConversations: 'Select at least one conversation',
  tooManyConversations: `At most ${EVALUATION_CONVERSATIONS_MAX} conversations can be evaluated at once`,
  unknownTemplate: 'Unknown prompt template',
  bothPrompts: 'Choose a prompt template or a custom prompt, not both',
  unknownConversations: 'Unknown conversations',
  unknownModel: 'Unknown model',
} as const

const concurrentLimit = z.coerce
  .number({ error: evaluationMessages.concurrentLimit })
  .int(evaluationMessages.concurrentLimit)
  .min(EVALUATION_CONCURRENCY_MIN, evaluationMessages.concurrentLimit)
  .max(EVALUATION_CONCURRENCY_MAX, evaluationMessages.concurrentLimit)

/**
 * `POST /api/admin/conversation-evals`: template mode (`prompt_template`) or custom mode (non-blank
 * `custom_prompt`). No `model` means the configured default, or `demo` (offline) without a
 * provider.
 */
export const createEvaluationRequestSchema = z
  .object({
    conversation_ids: z
      .array(idText(), { error: evaluationMessages.noConversations })
      .min(1, evaluationMessages.noConversations)
      .max(EVALUATION_CONVERSATIONS_MAX, evaluationMessages.tooManyConversations),
    concurrent_limit: concurrentLimit.default(EVALUATION_CONCURRENCY_DEFAULT),
    prompt_template: z.string().max(ID_MAX, maxText(ID_MAX)).nullish(),
    custom_prompt: z
      .string()
      .max(CUSTOM_PROMPT_MAX, evaluationMessages.customPromptTooLong)
      .nullish(),
    model: z.string().min(1).max(MODEL_ID_MAX, maxText(MODEL_ID_MAX)).nullish(),
  })
  .superRefine((request, context) => {
    const custom = request.custom_prompt !== undefined && request.custom_prompt !== null
    if (custom && request.prompt_template) {
      context.addIssue({
        code: 'custom',
        path: ['prompt_template'],
        message: evaluationMessages.bothPrompts,
      })
    }
    if (custom && request.custom_prompt?.trim() === '') {
      context.addIssue({
        code: 'custom',
        path: ['custom_prompt'],
        message: evaluationMessages.customPromptRequired,
      })
    }
    if (!custom && request.prompt_template && !isEvaluationTemplate(request.prompt_template)) {
      context.addIssue({
        code: 'custom',
        path: ['prompt_template'],
        message: evaluationMessages.unknownTemplate,
      })
    }
  })
  .transform((request) => {
    const customPrompt = request.custom_prompt?.trim() || null
    return {
      conversation_ids: [...new Set(request.conversation_ids)],
      concurrent_limit: request.concurrent_limit,
      prompt_template: customPrompt
        ? null
        : ((request.prompt_template || DEFAULT_EVALUATION_TEMPLATE) as EvaluationTemplateName),
      custom_prompt: customPrompt,
      model: request.model ?? null,
    }
  })
export type CreateEvaluationRequest = z.input<typeof createEvaluationRequestSchema>
export type CreateEvaluation = z.output<typeof createEvaluationRequestSchema>

export const createEvaluationResponseSchema = z.object({ eval_id: z.string() })

export function isEvaluationTemplate(name: string): name is EvaluationTemplateName {
  return (evaluationTemplateNames as readonly string[]).includes(name)
}

/** `GET /api/admin/conversation-evals/{id}` and the answer of `POST …/{id}/start`. */
export const evaluationSchema = z.object({
  id: z.string(),
  status: evaluationStatusSchema,
  created_at: z.string(),
  completed_at: z.string().nullable(),
  /** Null in custom mode ('Custom'). */
  prompt_template: z.string().nullable(),
  custom_prompt: z.string().nullable(),
  concurrent_limit: z.number().int(),
  /** The judge's model id; `demo` is the offline evaluator. */
  model: z.string(),
  conversation_count: z.number().int(),
  /** Items finished, complete or failed: the progress bar's n. */
  completed_count: z.number().int(),
  failed_count: z.number().int(),
})
export type Evaluation = z.infer<typeof evaluationSchema>

export const evaluationItemSchema = z.object({
  id: z.string(),
  status: evaluationItemStatusSchema,
  conversation_id: z.string(),
  conversation_title: z.string().nullable(),
  org_slug: z.string().nullable(),
  /** What screens show (see `adminConversationSchema`); null once the conversation is deleted. */
  org_name: z.string().nullable(),
  app_slug: z.string().nullable(),
  app_name: z.string().nullable(),
  started_at: z.string().nullable(),
  processing_time_ms: z.number().int().nullable(),
  /** Markdown; null until the item is complete. */
  summary: z.string().nullable(),
  /** Why a failed item failed. */
  error: z.string().nullable(),
})
export type EvaluationItem = z.infer<typeof evaluationItemSchema>

/** `GET /api/admin/conversation-evals/{id}/status`, polled every 2 s. */
export const evaluationStatusResponseSchema = evaluationSchema.extend({
  items: z.array(evaluationItemSchema),
})
export type EvaluationStatusResponse = z.infer<typeof evaluationStatusResponseSchema>

/** One row of the results list and its CSV/JSON exports (which leave out `org_name`). */
export const evaluationResultSchema = z.object({
  conversation_id: z.string(),
  conversation_title: z.string().nullable(),
  org_slug: z.string().nullable(),
  org_name: z.string().nullable(),
  summary: z.string().nullable(),
  processing_time_ms: z.number().int().nullable(),
})
export type EvaluationResult = z.infer<typeof evaluationResultSchema>

export function evaluationResults(items: readonly EvaluationItem[]): EvaluationResult[] {
  return items.map((item) => ({
    conversation_id: item.conversation_id,
    conversation_title: item.conversation_title,
    org_slug: item.org_slug,
    org_name: item.org_name,
    summary: item.summary ?? (item.error ? `Failed: ${item.error}` : null),
    processing_time_ms: item.processing_time_ms,
  }))
}
