import { z } from 'zod'

/** docs/product/vault.md "Secret": keys are environment-variable names. */
export const SECRET_KEY_PATTERN = /^[A-Z_][A-Z0-9_]{0,127}$/
export const SECRET_KEY_MAX_LENGTH = 128
/** Measured in UTF-8 bytes, the size the value has in the app's environment. */
export const SECRET_VALUE_MAX_BYTES = 64 * 1024

/**
 * Names Sprout itself sets for the app's processes (docs/architecture/devbox.md "exec"): a
 * secret of that name would break the dev server, the database or the egress proxy.
 */
export const RESERVED_SECRET_KEYS: ReadonlySet<string> = new Set([
  'PATH',
  'HOME',
  'LANG',
  'TERM',
  'CI',
  'NO_COLOR',
  'PORT',
  'DATABASE_URL',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
])

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
  if (RESERVED_SECRET_KEYS.has(key)) {
    return `${key} is set by Sprout for the app's processes: choose another name`
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
