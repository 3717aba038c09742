import { z } from 'zod'
import { APP_VISIBILITIES } from './app-visibility.ts'
import { MODEL_ID_MAX, maxText, URL_MAX } from './input-limits.ts'

export const APPLICATION_NAME_MAX = 80
export const INITIAL_PROMPT_MAX = 20_000

export const createApplicationRequestSchema = z.object({
  name: z
    .string()
    .max(APPLICATION_NAME_MAX, `must be at most ${APPLICATION_NAME_MAX} characters`)
    .optional()
    .nullable()
    .transform((name) => name?.trim() || undefined),
  initial_prompt: z
    .string()
    .max(INITIAL_PROMPT_MAX, `must be at most ${INITIAL_PROMPT_MAX} characters`)
    .transform((prompt) => prompt.trim())
    .refine((prompt) => prompt.length > 0, 'must not be empty'),
  model: z.string().min(1, 'must not be empty').max(MODEL_ID_MAX, maxText(MODEL_ID_MAX)),
})
export type CreateApplicationRequest = z.input<typeof createApplicationRequestSchema>

export const createApplicationResponseSchema = z.object({ id: z.string() })

/** docs/product/applications.md "Application". */
export const applicationSchema = z.object({
  id: z.string(),
  name: z.string(),
  preview_url: z.string(),
  prod_url: z.string().optional(),
  model: z.string(),
  created_at: z.string(),
  /** Where the app's Sentry SDKs report (docs/product/error-monitoring.md "DSN"); one application's read. */
  dsn: z.string().optional(),
  /** Who may open its deploy (docs/product/deploys.md "Who may open a deploy"). */
  visibility: z.enum(APP_VISIBILITIES),
  allowed_emails: z.array(z.string()),
  /** What the caller may set it to; empty when they may not change it (not an admin). */
  visibility_choices: z.array(z.enum(APP_VISIBILITIES)),
})
export type Application = z.infer<typeof applicationSchema>

export const applicationListSchema = z.array(applicationSchema)

/** `error` is set when the dev box could not be started: stop polling and tell the user. */
/** `starting_preview`: the box exists and its dev server is starting again (after idling). */
/**
 * `queue_position`: the box waits for its turn to start, behind that many others (0: it is next);
 * the builder shows it and keeps waiting (docs/architecture/devbox.md "Starts at once").
 */
export const editorReadySchema = z.object({
  ready: z.boolean(),
  error: z.string().optional(),
  starting_preview: z.boolean().optional(),
  queue_position: z.number().int().min(0).optional(),
})

export const devboxTokenRequestSchema = z.object({
  devbox_url: z.string().min(1).max(URL_MAX, maxText(URL_MAX)),
})
export const devboxTokenResponseSchema = z.object({ token: z.string() })

export const deployResponseSchema = z.object({ success: z.literal(true), prod_url: z.string() })

export const packTypeSchema = z.enum(['fullstack', 'vite-react'])
export const poolCycleRequestSchema = z.object({ pack_type: packTypeSchema })

/** The limits each dev box gets, and what enforces each part of its confinement on this server. */
export const devboxConfinementSchema = z.object({
  limits: z.object({
    pids: z.number(),
    memoryMb: z.number(),
    cpus: z.number(),
    diskMb: z.number(),
  }),
  enforcement: z.object({
    filesystem: z.string(),
    network: z.string(),
    user: z.string(),
    pids: z.string(),
    memory: z.string(),
    cpu: z.string(),
    disk: z.string(),
    syscalls: z.string(),
    node: z.string(),
  }),
})
export type DevboxConfinement = z.infer<typeof devboxConfinementSchema>

/** The admin's pool statistics, plus the boxes' confinement (docs/architecture/devbox.md). */
export const poolStatsSchema = z.object({
  global: z.object({ provisioning: z.number(), failed: z.number() }),
  packs: z.record(z.string(), z.object({ ready: z.number(), target: z.number() })),
  confinement: devboxConfinementSchema.optional(),
})
export type PoolStats = z.infer<typeof poolStatsSchema>
