import type { BetterAuthOptions } from 'better-auth'
import type { Config } from '../config/config.ts'
import type { Mailer } from '../mail/mailer.ts'
import { passwordResetMail, verificationMail } from '../mail/messages.ts'

/** How long a reset link works (docs/product/auth.md "Password reset"). */
export const resetLinkSeconds = 3600

/** The product's page a reset link opens; better-auth's token is its query. */
export const resetPageUrl = (publicUrl: string, token: string) =>
  `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`

/**
 * better-auth's options for what goes by mail: password reset, email verification and email
 * change (docs/product/auth.md); without mail, links are copied by an admin instead.
 */
export function mailFlows(
  config: Pick<Config, 'publicUrl' | 'requireEmailVerification'>,
  mailer: Pick<Mailer, 'configured' | 'enqueue'>,
): Pick<BetterAuthOptions, 'emailAndPassword' | 'emailVerification' | 'user'> {
  return {
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: 8,
      // docs/product/auth.md "Password reset": a single-use link valid for an hour; every
      // session of the user ends when it is used.
      resetPasswordTokenExpiresIn: resetLinkSeconds,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        await mailer.enqueue(
          passwordResetMail({
            to: user.email,
            name: user.name,
            url: resetPageUrl(config.publicUrl, token),
          }),
        )
      },
      // Without mail nobody could confirm an address (docs/product/mail.md).
      requireEmailVerification: config.requireEmailVerification && mailer.configured,
    },
    emailVerification: mailer.configured
      ? {
          sendOnSignUp: config.requireEmailVerification,
          // Signing in unconfirmed sends a fresh link (needs the password, so nobody else can).
          sendOnSignIn: true,
          autoSignInAfterVerification: true,
          sendVerificationEmail: async ({ user, url }) => {
            await mailer.enqueue(verificationMail({ to: user.email, name: user.name, url }))
          },
        }
      : undefined,
    user: {
      // Unconfirmed addresses change at once; confirmed ones after the new address confirms.
      changeEmail: { enabled: true, updateEmailWithoutVerification: true },
    },
  }
}
