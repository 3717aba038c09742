import type { HttpBindings } from '@hono/node-server'
import type { Auth } from './auth/auth.ts'

export type SessionUser = Auth['$Infer']['Session']['user']
export type SessionRecord = Auth['$Infer']['Session']['session']

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
