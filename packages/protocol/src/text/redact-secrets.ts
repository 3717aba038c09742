/**
 * Removes an application's secret values from text before Sprout stores or sends it
 * (docs/product/vault.md "Redaction"): each value becomes `[secret KEY]`.
 */

/** Shorter values are left alone: redacting every `ab` would garble all output, and say little. */
export const MIN_REDACTED_LENGTH = 4

export type StreamRedactor = {
  /** The part of the text so far that can no longer be the start of a secret, redacted. */
  push: (chunk: string) => string
  /** Whatever was held back, redacted; the stream is over. */
  flush: () => string
}

export type SecretRedactor = {
  redact: (text: string) => string
  /** Every string inside a JSON-like value (a stream chunk), redacted; other values as they are. */
  redactValue: <T>(value: T) => T
  /** For text that arrives in pieces: a value split across two pieces is still caught. */
  stream: () => StreamRedactor
  readonly empty: boolean
}

const identity: SecretRedactor = {
  redact: (text) => text,
  redactValue: (value) => value,
  stream: () => ({ push: (chunk) => chunk, flush: () => '' }),
  empty: true,
}

const escapeForPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** One pattern of every value, longest first; undefined when it is past what V8 compiles. */
function compilePattern(values: string[]): RegExp | undefined {
  try {
    const pattern = new RegExp(values.map(escapeForPattern).join('|'), 'g')
    // V8 compiles on first use: 'Regular expression too large' would come from a redaction.
    pattern.test('')
    return pattern
  } catch {
    return undefined
  }
}

/**
 * Redacting is one scan of the text, taking at each point the earliest value (the longest when two
 * start together, so a value containing another is replaced whole): one regular expression of
 * all values, or — when values as large as the vault allows (64 KB) make that too large — a scan
 * with indexOf, some 15 times slower on 4 KB of text (docs/performance.md).
 */
export function createSecretRedactor(secrets: Record<string, string>): SecretRedactor {
  const keyOf = new Map<string, string>()
  for (const [key, value] of Object.entries(secrets)) {
    if (value.length >= MIN_REDACTED_LENGTH && !keyOf.has(value)) keyOf.set(value, key)
  }
  if (keyOf.size === 0) return identity
  const values = [...keyOf.keys()].sort((first, second) => second.length - first.length)
  const pattern = compilePattern(values)
  const marker = (value: string) => `[secret ${keyOf.get(value)}]`
  const redact = (text: string) => {
    if (text.length < MIN_REDACTED_LENGTH) return text
    if (pattern) return text.replace(pattern, marker)
    // Where each value next occurs; found again only once the scan has passed it.
    const next = values.map((value) => text.indexOf(value))
    let result = ''
    let position = 0
    for (;;) {
      let found = -1
      for (let index = 0; index < values.length; index++) {
        let at = next[index] ?? -1
        if (at !== -1 && at < position) {
          at = text.indexOf(values[index] ?? '', position)
          next[index] = at
        }
        if (at !== -1 && (found === -1 || at < (next[found] ?? -1))) found = index
      }
      if (found === -1) return position === 0 ? text : result + text.slice(position)
      const value = values[found] ?? ''
      const at = next[found] ?? 0
      result += text.slice(position, at) + marker(value)
      position = at + value.length
    }
  }

  const redactValue = <T>(value: T): T => {
    if (typeof value === 'string') return redact(value) as T
    if (Array.isArray(value)) return value.map(redactValue) as T
    if (value && typeof value === 'object') {
      const copy: Record<string, unknown> = {}
      for (const [field, inner] of Object.entries(value)) copy[field] = redactValue(inner)
      return copy as T
    }
    return value
  }

  const longestValue = values[0]?.length ?? 0

  /** How many trailing characters could begin a secret that the next piece completes. */
  const pendingLength = (text: string): number => {
    // Only the last (longest value - 1) characters can be an unfinished value.
    const window = text.slice(Math.max(0, text.length - longestValue + 1))
    let longest = 0
    for (const value of values) {
      const first = value[0] ?? ''
      const from = Math.max(0, window.length - value.length + 1)
      let index = window.indexOf(first, from)
      while (index !== -1 && window.length - index > longest) {
        if (value.startsWith(window.slice(index))) longest = window.length - index
        index = window.indexOf(first, index + 1)
      }
    }
    return longest
  }

  const stream = (): StreamRedactor => {
    let held = ''
    return {
      push: (chunk) => {
        const text = redact(held + chunk)
        const keep = pendingLength(text)
        held = text.slice(text.length - keep)
        return text.slice(0, text.length - keep)
      },
      flush: () => {
        const rest = held
        held = ''
        return rest
      },
    }
  }

  return { redact, redactValue, stream, empty: false }
}

/** `redactSecrets(text, { KEY: value })`: the one-off form of `createSecretRedactor`. */
export function redactSecrets(text: string, secrets: Record<string, string>): string {
  return createSecretRedactor(secrets).redact(text)
}
