// Used only by `auth generate` to write packages/db/src/schema/auth.ts.
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { createAuth } from './auth.ts'

const db = drizzle({ client: new PGlite() })

export const auth = createAuth({
  config: {
    publicUrl: 'http://localhost:3000',
    adminEmails: [],
    authSecret: undefined,
    requireEmailVerification: false,
    oidc: undefined,
    ssoOnly: false,
  },
  mailer: { configured: true, enqueue: async () => {} },
  signUpRules: { refusal: async () => undefined },
  setupLink: { refusal: async () => 'none', take: async () => 'none' },
  userStreams: { endSessions: async () => undefined, endMembership: async () => undefined },
  // biome-ignore lint/suspicious/noExplicitAny: the generator only reads the options
  db: db as any,
  secret: 'schema-generation-only-secret-0123456789',
})
