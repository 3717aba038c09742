import { bannedSignInMessage } from '@sprout/protocol/api/admin-users.ts'

/**
 * What a banned user reads when signing in, with the admin's reason (docs/product/auth.md
 * "Banned users"): better-auth's admin plugin answers 403 `BANNED_USER` with this text whenever
 * a session would be created for them (password or single sign-on); pass it to `admin()` as
 * `bannedUserMessage`.
 */
export function bannedUserMessage(user: { banReason?: string | null }): string {
  const reason = user.banReason?.trim()
  return reason ? bannedSignInMessage(reason) : 'Your account has been suspended.'
}
