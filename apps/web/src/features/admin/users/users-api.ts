import {
  type AdminUser,
  type AdminUserList,
  type AdminUserSort,
  adminUserListSchema,
  adminUserSchema,
  resetLinkSchema,
} from '@sprout/protocol/api/admin-users.ts'
import { apiRequest } from '../../../lib/api-client.ts'

const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`

export async function fetchUsers(input: {
  query: string
  page: number
  sort: AdminUserSort
}): Promise<AdminUserList> {
  const search = new URLSearchParams({ page: String(input.page), sort: input.sort })
  if (input.query) search.set('query', input.query)
  return adminUserListSchema.parse(await apiRequest(`/api/admin/users?${search}`))
}

/** The calls of a row's actions menu; each answers the user as they are now. */
export const userActions = {
  setRole: async (id: string, role: 'admin' | 'user'): Promise<AdminUser> =>
    adminUserSchema.parse(
      await apiRequest(`${userPath(id)}/role`, { method: 'POST', body: { role } }),
    ),
  ban: async (id: string, reason: string): Promise<AdminUser> =>
    adminUserSchema.parse(
      await apiRequest(`${userPath(id)}/ban`, { method: 'POST', body: { reason } }),
    ),
  unban: async (id: string): Promise<AdminUser> =>
    adminUserSchema.parse(await apiRequest(`${userPath(id)}/unban`, { method: 'POST', body: {} })),
  signOut: async (id: string): Promise<AdminUser> =>
    adminUserSchema.parse(
      await apiRequest(`${userPath(id)}/sign-out`, { method: 'POST', body: {} }),
    ),
  resetLink: async (id: string): Promise<string> =>
    resetLinkSchema.parse(
      await apiRequest(`${userPath(id)}/reset-link`, { method: 'POST', body: {} }),
    ).url,
  resetMail: async (id: string): Promise<void> => {
    await apiRequest(`${userPath(id)}/reset-mail`, { method: 'POST', body: {} })
  },
}
