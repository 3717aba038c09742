import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import { organization, user } from './auth.ts'

/**
 * A value sealed with the vault's crypto (AES-256-GCM; docs/product/vault.md "Storage"): base64
 * ciphertext with its tag, base64 IV, and which master key sealed it. Never stored in clear.
 */
export type SealedColumn = { ciphertext: string; iv: string; keyId: string }

/** What an admin defines (docs/product/admin.md "Integrations tab"; decision 018). */
export const integrationDefinitions = pgTable('integration_definitions', {
  serviceName: text('service_name').primaryKey(),
  displayName: text('display_name').notNull(),
  clientId: text('client_id').notNull(),
  clientSecret: jsonb('client_secret').$type<SealedColumn>().notNull(),
  authUrl: text('auth_url').notNull(),
  tokenUrl: text('token_url').notNull(),
  revokeUrl: text('revoke_url'),
  scopes: jsonb('scopes').$type<string[]>().notNull(),
  additionalParams: jsonb('additional_params').$type<Record<string, string>>().notNull(),
  /** 'linear' | 'google-sheets' | 'hubspot' when made from a preset. */
  preset: text('preset'),
  createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
})

/** The organization and the integration a row belongs to; it goes when either does. */
const organizationIntegration = () => ({
  organizationId: text('organization_id')
    .notNull()
    .references(() => organization.id, { onDelete: 'cascade' }),
  serviceName: text('service_name')
    .notNull()
    .references(() => integrationDefinitions.serviceName, { onDelete: 'cascade' }),
})

/** An organization's tokens for one integration (docs/product/integrations.md). */
export const integrationConnections = pgTable(
  'integration_connections',
  {
    ...organizationIntegration(),
    accessToken: jsonb('access_token').$type<SealedColumn>().notNull(),
    refreshToken: jsonb('refresh_token').$type<SealedColumn>(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    /** A refresh failed (grant revoked or expired): the organization must connect again. */
    needsReconnect: boolean('needs_reconnect').default(false).notNull(),
    connectedBy: text('connected_by').references(() => user.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.serviceName] })],
)

/**
 * One authorization in progress: single use, 10 minutes, bound to the user, organization,
 * integration and PKCE verifier. Only the state's SHA-256 is stored.
 */
export const oauthStates = pgTable(
  'oauth_states',
  {
    stateHash: text('state_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    ...organizationIntegration(),
    codeVerifier: jsonb('code_verifier').$type<SealedColumn>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('oauth_states_expires_at').on(table.expiresAt)],
)
