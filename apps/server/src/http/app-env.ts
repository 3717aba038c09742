import type { HttpBindings } from '@hono/node-server'
import type { Session, User } from 'better-auth'

// better-auth's user and session with the fields its admin and organization plugins add
// (auth/auth.ts); spelled out here so that the platform's request types need no auth import.
export type SessionUser = User & {
  role?: string | null
  banned: boolean | null | undefined
  banReason?: string | null
  banExpires?: Date | null
}
export type SessionRecord = Session & {
  activeOrganizationId?: string | null
  impersonatedBy?: string | null
}

export type OrganizationContext = {
  id: string
  role: string
  isPersonal: boolean
}

/** Hono's environment for every Sprout route. */
export type AppEnv = {
  Bindings: Partial<HttpBindings>
  Variables: {
    user: SessionUser
    session: SessionRecord
    isPlatformAdmin: boolean
    organization: OrganizationContext
  }
}
