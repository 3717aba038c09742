/**
 * Accounts of a public app: e-mail and password with a confirmation link, password reset by
 * link, sessions in a cookie, all kept in the app's own database (better-auth on node:sqlite).
 * routes.ts mounts it at /api/auth/*.
 */
import { betterAuth } from 'better-auth'
import { db } from '../db.ts'
import { type AppMail, sendAppMail } from './mail.ts'
import { recordMailFailure } from './mail-failures.ts'
import { allowedHosts, everyOriginIsHttps } from './origins.ts'
import { authSecret } from './secret.ts'
import { createAuthTables } from './tables.ts'
import { roleOfNewUser } from './users.ts'

createAuthTables()

const inDevServer = process.env.NODE_ENV !== 'production'

export const auth = betterAuth({
  appName: 'Sprout app',
  telemetry: { enabled: false },
  database: db,
  secret: authSecret(),
  // Links in e-mails and the trusted Origins follow the address the request came to, but only
  // one of the app's own (origins.ts); routes.ts passes that address in x-forwarded-*.
  baseURL: { allowedHosts, protocol: 'auto' },
  emailAndPassword: {
    enabled: true,
    requireEmailVerification: true,
    minPasswordLength: 8,
    revokeSessionsOnPasswordReset: true,
    sendResetPassword: ({ user, url }) =>
      send({
        to: user.email,
        subject: 'Reset your password',
        text: `Open this link to choose a new password:\n${url}\n\nIf you did not ask for it, ignore this e-mail.`,
      }),
  },
  emailVerification: {
    sendOnSignUp: true,
    sendOnSignIn: true,
    autoSignInAfterVerification: true,
    sendVerificationEmail: ({ user, url }) =>
      send({
        to: user.email,
        subject: 'Confirm your email address',
        text: `Open this link to confirm your email address:\n${url}`,
      }),
  },
  user: {
    modelName: 'auth_user',
    additionalFields: {
      // input: false: sign-up and update-user ignore or refuse it; only the server sets it.
      role: { type: 'string', required: false, defaultValue: 'member', input: false },
    },
  },
  session: { modelName: 'auth_session' },
  account: { modelName: 'auth_account' },
  verification: { modelName: 'auth_verification' },
  databaseHooks: {
    user: { create: { before: async (user) => ({ data: { ...user, role: roleOfNewUser() } }) } },
  },
  advanced: {
    // Sprout's proxy sends the browser's host in x-forwarded-host and removes any a client sent.
    trustedProxyHeaders: true,
    // The dev server is the preview, shown inside Sprout's builder: a frame of another site,
    // where only SameSite=None cookies reach it (Chromium counts http://*.localhost as secure).
    useSecureCookies: inDevServer ? false : everyOriginIsHttps,
    defaultCookieAttributes: inDevServer
      ? { sameSite: 'none', secure: true, partitioned: true }
      : { sameSite: 'lax', secure: everyOriginIsHttps },
  },
})

async function send(mail: AppMail) {
  try {
    await sendAppMail(mail)
  } catch (error) {
    recordMailFailure(error)
    throw error
  }
}
