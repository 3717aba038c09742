import { randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { schema } from '@sprout/db/schema.ts'
import { APIError, betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { admin, bearer, jwt, organization } from 'better-auth/plugins'
import { createAccessControl } from 'better-auth/plugins/access'
import { defaultStatements } from 'better-auth/plugins/admin/access'
import { eq } from 'drizzle-orm'
import type { Config } from '../config/config.ts'
import { loopbackAliases } from '../http/origins.ts'
import type { Mailer } from '../mail/mailer.ts'
import { invitationMail } from '../mail/messages.ts'
import { accountHooks, signUpRequestHooks } from './account-hooks.ts'
import { bannedUserMessage } from './banned-sign-in.ts'
import { mailFlows } from './mail-flows.ts'
import type { SetupLink } from './setup-link.ts'
import type { SignUpRulesService } from './sign-up-rules.ts'
import { singleSignOnPlugins } from './single-sign-on.ts'
import { streamEndingHooks } from './stream-ending-hooks.ts'
import type { UserStreams } from './user-streams.ts'

export type AuthOptions = {
  config: Pick<
    Config,
    'publicUrl' | 'adminEmails' | 'authSecret' | 'requireEmailVerification' | 'oidc' | 'ssoOnly'
  >
  db: Database
  secret: string
  mailer: Pick<Mailer, 'configured' | 'enqueue'>
  signUpRules: Pick<SignUpRulesService, 'refusal'>
  setupLink: Pick<SetupLink, 'refusal' | 'take'>
  userStreams: Pick<UserStreams, 'endSessions' | 'endMembership'>
}

/**
 * Platform admins may not impersonate anyone nor list sessions (each listed session carries its
 * raw token, usable as a bearer token). The admin endpoints are not reachable over HTTP either
 * (auth-endpoints.ts); this keeps them harmless if one ever is.
 */
const adminAccess = createAccessControl(defaultStatements)
const platformAdminRoles = {
  ac: adminAccess,
  roles: {
    admin: adminAccess.newRole({
      user: ['create', 'list', 'set-role', 'ban', 'delete', 'set-password', 'get', 'update'],
      session: ['revoke', 'delete'],
    }),
    user: adminAccess.newRole({ user: [], session: [] }),
  },
}

/** better-auth with the plugins Sprout relies on: organizations, platform admin, bearer and JWT. */
export function createAuth(options: AuthOptions) {
  const { config, db, secret, mailer, signUpRules, setupLink, userStreams } = options
  const streamEnds = streamEndingHooks(userStreams)
  const isPersonal = async (organizationId: string) => {
    const rows = await db
      .select({ isPersonal: schema.organization.isPersonal })
      .from(schema.organization)
      .where(eq(schema.organization.id, organizationId))
    return rows[0]?.isPersonal === true
  }
  const refusePersonal = async (organizationId: string, message: string) => {
    if (await isPersonal(organizationId)) throw new APIError('BAD_REQUEST', { message })
  }

  return betterAuth({
    appName: 'Sprout',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: [config.publicUrl, ...loopbackAliases(new URL(config.publicUrl))],
    database: drizzleAdapter(db, { provider: 'pg', schema }),
    ...mailFlows(config, mailer),
    // Sprout applies its own limiter in front of sign-in and sign-up (see rate-limit.ts).
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    advanced: {
      cookiePrefix: 'sprout',
      database: { generateId: () => randomUUID() },
    },
    databaseHooks: {
      ...accountHooks({ config, db, signUpRules, setupLink }),
      session: { delete: { after: streamEnds.sessionDeleted } },
    },
    hooks: {
      ...signUpRequestHooks({ config, db, signUpRules, setupLink }),
      after: streamEnds.memberLeft,
    },
    plugins: [
      organization({
        allowUserToCreateOrganization: true,
        // The invitation link itself may be shared by hand, so accepting needs no confirmed address.
        requireEmailVerificationOnInvitation: false,
        sendInvitationEmail: async ({ email, organization, inviter, id }) => {
          await mailer.enqueue(
            invitationMail({
              to: email,
              inviterName: inviter.user.name,
              organizationName: organization.name,
              url: `${config.publicUrl}/invitations/${id}`,
            }),
          )
        },
        schema: {
          organization: {
            additionalFields: {
              isPersonal: { type: 'boolean', required: false, defaultValue: false, input: false },
            },
          },
        },
        organizationHooks: {
          beforeDeleteOrganization: async ({ organization }) =>
            refusePersonal(organization.id, 'A personal organization cannot be deleted.'),
          beforeCreateInvitation: async ({ organization }) =>
            refusePersonal(organization.id, 'Nobody can be invited to a personal organization.'),
          beforeRemoveMember: async ({ organization }) =>
            refusePersonal(organization.id, 'Nobody can leave a personal organization.'),
        },
      }),
      // A banned user reads the admin's reason at sign-in (docs/product/auth.md "Banned users").
      admin({ ...platformAdminRoles, bannedUserMessage }),
      bearer(),
      ...singleSignOnPlugins(config),
      // Short-lived tokens are issued on request (GET /api/auth/token), not on every session read.
      // The token names its session, so it opens nothing once the session has ended.
      jwt({
        disableSettingJwtHeader: true,
        jwt: {
          expirationTime: '5m',
          issuer: config.publicUrl,
          audience: config.publicUrl,
          definePayload: ({ session }) => ({ sid: session.id }),
        },
      }),
    ],
  })
}

export type Auth = ReturnType<typeof createAuth>
