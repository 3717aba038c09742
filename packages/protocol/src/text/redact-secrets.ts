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

/**
 * Past this many characters a pattern takes tens of milliseconds to compile, and single values
 * past 32K characters do not compile at all: the scan is used instead.
 */
const PATTERN_MAX_LENGTH = 64 * 1024

/**
 * V8 compiles a pattern lazily, once for one-byte (Latin-1) and once for two-byte text, and again
 * when a long text or a second use tiers it up: each form is made here, where a failure is caught.
 */
const patternProbes = [
  '',
  'latin-1 text é',
  '\u279c two-byte \u{1F600} text',
  '\u279c'.repeat(2048),
  'x'.repeat(2048),
]

/** One pattern of every value, longest first; undefined when it is past what V8 compiles. */
function compilePattern(values: string[]): RegExp | undefined {
  let length = 0
  for (const value of values) length += value.length + 1
  if (length > PATTERN_MAX_LENGTH) return undefined
  try {
    const pattern = new RegExp(values.map(escapeForPattern).join('|'), 'g')
    for (let round = 0; round < 2; round++) {
      for (const probe of patternProbes) {
        pattern.lastIndex = 0
        pattern.test(probe)
      }
    }
    pattern.lastIndex = 0
    return pattern
  } catch {
    return undefined
  }
}

/**
 * One scan taking the earliest value at each point (the longest on a tie, so a value containing
 * another goes whole): one regular expression of all values, or an indexOf scan (~15× slower;
 * docs/performance.md) when they exceed 64K characters or V8 cannot run it. Never throws.
 */
export function createSecretRedactor(secrets: Record<string, string>): SecretRedactor {
  const keyOf = new Map<string, string>()
  for (const [key, value] of Object.entries(secrets)) {
    if (value.length >= MIN_REDACTED_LENGTH && !keyOf.has(value)) keyOf.set(value, key)
  }
  if (keyOf.size === 0) return identity
  const values = [...keyOf.keys()].sort((first, second) => second.length - first.length)
  let pattern = compilePattern(values)
  const marker = (value: string) => `[secret ${keyOf.get(value)}]`
  const redact = (text: string) => {
    if (text.length < MIN_REDACTED_LENGTH) return text
    if (pattern) {
      try {
        return text.replace(pattern, marker)
      } catch {
        // Redaction runs inside output handlers, where a throw would end the server.
        pattern = undefined
      }
    }
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

  // Random per redactor, so no output can be crafted to make the hashes below collide often.
  const hashBase = 256 + Math.floor(Math.random() * 1_000_000)

  /** How many trailing characters could begin a secret that the next piece completes. */
  const pendingLength = (text: string): number => {
    let longest = 0
    for (const value of values) {
      longest = Math.max(longest, unfinishedLength(text, value, hashBase))
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

const hashModulus = 2_147_483_647

/**
 * The length of the longest end of `text` that is the start of `value` without being all of it.
 * Linear, with rolling hashes checked on a match: comparing at every candidate instead took
 * seconds on an output crafted against a 64 KB value.
 */
function unfinishedLength(text: string, value: string, base: number): number {
  const most = Math.min(text.length, value.length - 1)
  if (most <= 0 || !text.includes(value[0] ?? '', text.length - most)) return 0
  let prefixHash = 0
  let suffixHash = 0
  let power = 1
  const matches: number[] = []
  for (let length = 1; length <= most; length++) {
    prefixHash = (prefixHash * base + value.charCodeAt(length - 1)) % hashModulus
    suffixHash = (text.charCodeAt(text.length - length) * power + suffixHash) % hashModulus
    power = (power * base) % hashModulus
    if (prefixHash === suffixHash) matches.push(length)
  }
  for (let index = matches.length - 1; index >= 0; index--) {
    const length = matches[index] ?? 0
    if (text.endsWith(value.slice(0, length))) return length
  }
  return 0
}
