import { z } from 'zod'

/** docs/product/vault.md "Secret": keys are environment-variable names. */
export const SECRET_KEY_PATTERN = /^[A-Z_][A-Z0-9_]{0,127}$/
export const SECRET_KEY_MAX_LENGTH = 128
/** Measured in UTF-8 bytes, the size the value has in the app's environment. */
export const SECRET_VALUE_MAX_BYTES = 64 * 1024

/**
 * Names Sprout itself sets in the app's processes (packages/devbox box-environment.ts and
 * box-sandbox.ts, apps/server app.ts): a secret of that name would be overridden, or would break
 * the dev server, the database, error reports or the egress proxy. The one list; keep it so.
 */
export const RESERVED_SECRET_KEYS: ReadonlySet<string> = new Set([
  'PATH',
  'HOME',
  'LANG',
  'TERM',
  'CI',
  'NO_COLOR',
  'PORT',
  'NODE_ENV',
  'DATABASE_URL',
  'SENTRY_DSN',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'NODE_USE_ENV_PROXY',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  // npm reads its npm_config_* variables whatever their case.
  'NPM_CONFIG_FUND',
  'NPM_CONFIG_AUDIT',
  'NPM_CONFIG_UPDATE_NOTIFIER',
  'NPM_CONFIG_PROXY',
  'NPM_CONFIG_HTTPS_PROXY',
  'NPM_CONFIG_REGISTRY',
])

/** Every name with this prefix is Sprout's (SPROUT_APP_TOKEN, SPROUT_INTERNAL_URL, and later ones). */
export const RESERVED_SECRET_KEY_PREFIX = 'SPROUT_'

export function isReservedSecretKey(key: string): boolean {
  return RESERVED_SECRET_KEYS.has(key) || key.startsWith(RESERVED_SECRET_KEY_PREFIX)
}

/** Why a key cannot be stored, said so the user knows what to type instead; undefined: fine. */
export function secretKeyProblem(key: string): string | undefined {
  if (key.trim() === '') return 'Key is required'
  if (key.length > SECRET_KEY_MAX_LENGTH) {
    return `Key is longer than ${SECRET_KEY_MAX_LENGTH} characters: use a shorter name`
  }
  if (!SECRET_KEY_PATTERN.test(key)) {
    const suggestion = key
      .trim()
      .toUpperCase()
      .replace(/[^A-Z0-9_]+/g, '_')
      .replace(/^(\d)/, '_$1')
    const example = SECRET_KEY_PATTERN.test(suggestion) ? suggestion : 'OPENAI_API_KEY'
    return `Key "${key}" is not an environment variable name: use capital letters, digits and underscores, not starting with a digit, for example ${example}`
  }
  if (key.startsWith('VITE_')) {
    return `Keys starting with VITE_ are compiled into the app's public client, where anyone can read them: name it ${key.slice(5) || 'without the prefix'} and read it in a server route (process.env)`
  }
  if (isReservedSecretKey(key)) {
    return `Key "${key}" is reserved: Sprout sets ${key} itself in the app's environment, so a secret of that name would be overridden. Choose another name`
  }
  return undefined
}

/** docs/product/vault.md: 'Value is required' for an empty or blank value. */
export function secretValueProblem(value: string): string | undefined {
  if (value.trim() === '') return 'Value is required'
  if (new TextEncoder().encode(value).length > SECRET_VALUE_MAX_BYTES) {
    return 'Value is larger than 64 KB: store something smaller (for a file, store where to fetch it from)'
  }
  return undefined
}

/** The body of POST /api/applications/{id}/vault; the rules above are checked by the service. */
export const setSecretRequestSchema = z.object({ key: z.string(), value: z.string() })
export type SetSecretRequest = z.infer<typeof setSecretRequestSchema>

/** One entry of GET /api/applications/{id}/vault: a key, never its value. */
export const vaultEntrySchema = z.object({ key: z.string(), updated_at: z.string() })
export type VaultEntry = z.infer<typeof vaultEntrySchema>
export const vaultEntryListSchema = z.array(vaultEntrySchema)

export const setSecretResponseSchema = z.object({ key: z.string(), updated_at: z.string() })
