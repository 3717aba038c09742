import { createAuthMiddleware, getSessionFromCtx } from 'better-auth/api'
import type { UserStreams } from './user-streams.ts'

/**
 * What ends open streams from inside better-auth (user-streams.ts says every other way): each
 * session it deletes (sign-out, revoking the others, a password reset or change), and a member
 * leaving an organization (removing others and deleting one are refused: auth-endpoints.ts). Each
 * runs after the request's own work: ending a stream from inside better-auth's delete held the
 * password reset's answer (seen in tests/e2e/password-reset.spec.ts).
 */
export function streamEndingHooks(userStreams: Pick<UserStreams, 'endSessions' | 'endMembership'>) {
  const later = (what: string, end: () => Promise<void>): void => {
    setImmediate(() => {
      end().catch((error: Error) => {
        console.error(`Could not end the streams of ${what}:`, error.message)
      })
    })
  }
  const endMembership = (organizationId: string, userId: string) =>
    later('a membership', () => userStreams.endMembership(organizationId, userId))
  return {
    sessionDeleted: async (ended: { id: string }) =>
      later('a session', () => userStreams.endSessions([ended.id])),
    /** better-auth's leave has no organization hook of its own: an `after` request hook. */
    memberLeft: createAuthMiddleware(async (context) => {
      if (context.path !== '/organization/leave' || context.context.returned instanceof Error)
        return
      const organizationId = (context.body as { organizationId?: unknown } | undefined)
        ?.organizationId
      const userId = (context.context.session ?? (await getSessionFromCtx(context)))?.user.id
      if (typeof organizationId === 'string' && userId) endMembership(organizationId, userId)
    }),
  }
}
