import { randomBytes } from 'node:crypto'
import type { Auth } from './auth.ts'
import { resetLinkSeconds, resetPageUrl } from './mail-flows.ts'

/**
 * A reset link an admin copies for a user when no mail is sent: the same single-use token
 * better-auth issues for 'Forgot password?', valid for an hour.
 */
export async function createPasswordResetLink(auth: Auth, userId: string, publicUrl: string) {
  const context = await auth.$context
  const token = randomBytes(18).toString('base64url')
  await context.internalAdapter.createVerificationValue({
    value: userId,
    identifier: `reset-password:${token}`,
    expiresAt: new Date(Date.now() + resetLinkSeconds * 1000),
  })
  return resetPageUrl(publicUrl, token)
}
