import { randomUUID } from 'node:crypto'
import type { Database } from '@sprout/db/database.ts'
import { schema } from '@sprout/db/schema.ts'
import { APIError, betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { admin, bearer, jwt, organization } from 'better-auth/plugins'
import { createAccessControl } from 'better-auth/plugins/access'
import { defaultStatements } from 'better-auth/plugins/admin/access'
import { count, eq } from 'drizzle-orm'
import type { Config } from '../config/config.ts'
import { loopbackAliases } from '../http/origins.ts'

export type AuthOptions = {
  config: Pick<Config, 'publicUrl' | 'adminEmails' | 'authSecret'>
  db: Database
  secret: string
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
export function createAuth({ config, db, secret }: AuthOptions) {
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
    emailAndPassword: { enabled: true, autoSignIn: true, minPasswordLength: 8 },
    // Sprout applies its own limiter in front of sign-in and sign-up (see rate-limit.ts).
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    advanced: {
      cookiePrefix: 'sprout',
      database: { generateId: () => randomUUID() },
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user) => {
            const [existing] = await db.select({ total: count() }).from(schema.user)
            const isFirstUser = (existing?.total ?? 0) === 0
            const isListed = config.adminEmails.includes(user.email.toLowerCase())
            return { data: { ...user, role: isFirstUser || isListed ? 'admin' : 'user' } }
          },
          after: async (user) => {
            const organizationId = randomUUID()
            await db.transaction(async (transaction) => {
              await transaction.insert(schema.organization).values({
                id: organizationId,
                name: 'Personal',
                slug: `personal-${user.id}`,
                isPersonal: true,
                createdAt: new Date(),
              })
              await transaction.insert(schema.member).values({
                id: randomUUID(),
                organizationId,
                userId: user.id,
                role: 'owner',
                createdAt: new Date(),
              })
            })
          },
        },
      },
    },
    plugins: [
      organization({
        allowUserToCreateOrganization: true,
        // Without a mail server nobody can verify an address; the invitation link itself is shared.
        requireEmailVerificationOnInvitation: false,
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
      admin(platformAdminRoles),
      bearer(),
      // Short-lived tokens are issued on request (GET /api/auth/token), not on every session read.
      jwt({
        disableSettingJwtHeader: true,
        jwt: { expirationTime: '5m', issuer: config.publicUrl, audience: config.publicUrl },
      }),
    ],
  })
}

export type Auth = ReturnType<typeof createAuth>
