/** Business constants and limits (docs/product/limits.md), in one place. */

// Create application: wait for the editor before sending the first message.
export const EDITOR_READY_POLL_INTERVAL_MS = 1_000
export const EDITOR_READY_MAX_POLLS = 60

// Page sizes and list limits.
export const CONVERSATIONS_PAGE_SIZE = 100
export const ERROR_LIST_PAGE_SIZE = 50
export const COMPACT_ERROR_LIST_FETCH_LIMIT = 5
export const COMPACT_ERROR_LIST_SHOWN = 3
export const ERROR_DETAIL_OCCURRENCES_SHOWN = 10

// Polls and timers.
export const POOL_STATS_POLL_INTERVAL_MS = 10_000
export const ERROR_LIST_POLL_INTERVAL_MS = 30_000
export const EVALUATION_STATUS_POLL_INTERVAL_MS = 2_000
export const EXPLORATION_TOKEN_REFRESH_INTERVAL_MS = 30_000
export const SUCCESS_BANNER_DURATION_MS = 5_000

// Chat stream and run control.
export const RECONNECT_BASE_DELAY_MS = 1_000
export const RECONNECT_MAX_DELAY_MS = 30_000
/** ±25 % of the delay. */
export const RECONNECT_JITTER_RATIO = 0.25
export const STAGE_MESSAGE_TIMEOUT_MS = 30_000
export const INTERRUPT_DEBOUNCE_MS = 500
/** Sprout's choice: below the ~30-60 s idle timeouts of common proxies. */
export const SSE_HEARTBEAT_INTERVAL_MS = 15_000

// Evaluations and admin.
export const EVALUATION_CONCURRENCY_MIN = 1
export const EVALUATION_CONCURRENCY_MAX = 10
export const EVALUATION_CONCURRENCY_DEFAULT = 3
export const DEFAULT_EVALUATION_TEMPLATE = 'eval_conversation_challenges'
export const CLIENT_ID_DISPLAY_LENGTH = 20

// Layout.
export const MESSAGE_INPUT_MIN_HEIGHT_PX = 24
export const MESSAGE_INPUT_MAX_HEIGHT_PX = 100
export const SCROLL_FOLLOW_THRESHOLD_PX = 50
export const PREVIEW_VIRTUAL_WIDTH_PX = 1024
export const PREVIEW_VIRTUAL_HEIGHT_PX = 768
export const PREVIEW_PANE_WIDTH_PX = 250
export const PREVIEW_PANE_FOCUSED_WIDTH_PX = 500
/** Tailwind spacing units of the builder's conversation list. */
export const CONVERSATION_LIST_COLLAPSED_WIDTH = 12
export const CONVERSATION_LIST_OPEN_WIDTH = 64
export const MAX_HEADING_LEVEL = 6

// Context usage.
export const CONTEXT_WARNING_PERCENTAGE = 80

// Tool displays.
export const SHELL_DEFAULT_TIMEOUT_SECONDS = 5
export const PATH_SHORTEN_LENGTH = 40
export const DIFF_CONTEXT_LINES = 4
export const DEFAULT_DICE_COUNT = 1
export const DEFAULT_DICE_SIDES = 6

// Secrets requested in the conversation are confirmed with this model.
export const SECRET_CONFIRMATION_MODEL_ID = 'claude-haiku-4-5'

// Local storage.
export const PERSONAL_MODE_STORAGE_KEY_PREFIX = 'hasSelectedPersonal_'

// Script loading and error reporting.
export const SCRIPT_CHUNK_TIMEOUT_MS = 120_000
export const ERROR_REPORTING_MAX_BREADCRUMBS = 100
export const ERROR_REPORTING_TRANSPORT_BUFFER_SIZE = 64
export const ERROR_REPORTING_MAX_STACK_FRAMES = 50
export const ERROR_REPORTING_RATE_LIMIT_FALLBACK_MS = 60_000
