import { z } from 'zod'
import { maxText } from './input-limits.ts'

// Payloads of the admin's Users tab (docs/product/admin.md "Users tab", docs/product/api.md
// "Users"). Platform admins only; times are ISO 8601. No answer carries a session token.

export const ADMIN_USERS_PAGE_SIZE = 50
/** The last page one can ask for: 50 × 10,000 users is far past any installation. */
export const ADMIN_USERS_PAGE_MAX = 10_000
export const ADMIN_USERS_QUERY_MAX = 200
export const BAN_REASON_MAX = 500

export const adminUserSorts = ['newest', 'name'] as const
export type AdminUserSort = (typeof adminUserSorts)[number]

/** docs/product/admin.md "Users tab": the texts the server answers and the screen shows. */
export const adminUserMessages = {
  userNotFound: 'User not found',
  lastAdminRole: 'The last admin cannot stop being an admin.',
  lastAdminBan: 'The last admin cannot be banned.',
  banYourself: 'You cannot ban yourself.',
  listedAdmin:
    'This admin is listed in ADMIN_EMAILS: remove the address there to remove the admin.',
  reasonRequired: 'A reason is required',
  mailNotConfigured: 'Mail is not configured',
} as const

/** What a banned user reads when signing in (docs/product/auth.md "Banned users"). */
export const bannedSignInMessage = (reason: string) => `Your account has been suspended: ${reason}`

export const adminUsersQuerySchema = z.object({
  query: z
    .string()
    .max(ADMIN_USERS_QUERY_MAX, maxText(ADMIN_USERS_QUERY_MAX))
    .optional()
    .transform((value) => value?.trim() ?? ''),
  page: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(ADMIN_USERS_PAGE_MAX, `must be at most ${ADMIN_USERS_PAGE_MAX.toLocaleString('en-US')}`)
    .default(1),
  sort: z.enum(adminUserSorts).default('newest'),
})
export type AdminUsersQuery = z.input<typeof adminUsersQuerySchema>

export const adminUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  /** The stored role; `isAdmin` also counts ADMIN_EMAILS. */
  role: z.enum(['admin', 'user']),
  isAdmin: z.boolean(),
  banned: z.boolean(),
  banReason: z.string().nullable(),
  /** Organization names, a personal one as 'Personal'. */
  organizations: z.array(z.string()),
  createdAt: z.string(),
  /** The latest session activity; null when the user has no session. */
  lastSeenAt: z.string().nullable(),
})
export type AdminUser = z.infer<typeof adminUserSchema>

/** `GET /api/admin/users`. */
export const adminUserListSchema = z.object({
  users: z.array(adminUserSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Whether 'Send reset mail' can send anything (SMTP_URL is set). */
  mailConfigured: z.boolean(),
})
export type AdminUserList = z.infer<typeof adminUserListSchema>

export const adminUserRoleRequestSchema = z.object({ role: z.enum(['admin', 'user']) })
export type AdminUserRoleRequest = z.infer<typeof adminUserRoleRequestSchema>

export const banUserRequestSchema = z.object({
  reason: z
    .string(adminUserMessages.reasonRequired)
    .trim()
    .min(1, adminUserMessages.reasonRequired)
    .max(BAN_REASON_MAX, maxText(BAN_REASON_MAX)),
})
export type BanUserRequest = z.infer<typeof banUserRequestSchema>

/** `POST /api/admin/users/{id}/reset-link`. */
export const resetLinkSchema = z.object({ url: z.string() })
