/**
 * The tag assistant text embeds to ask the user for a secret, e.g.
 * `<secret-request key="STRIPE_SECRET_KEY" />`. The chat renders the secret widget in its place.
 * Keys are environment-variable names: a letter or underscore, then letters, digits, underscores.
 */
export const SECRET_REQUEST_TAG = 'secret-request'

const keyPattern = /^[A-Za-z_][A-Za-z0-9_]*$/
const tagPattern =
  /<secret-request\s+key\s*=\s*(["'])([A-Za-z_][A-Za-z0-9_]*)\1\s*(?:\/>|>\s*<\/secret-request>|>)/gi

export type SecretRequestSegment =
  | { type: 'text'; text: string }
  | { type: 'secret-request'; key: string }

export function formatSecretRequest(key: string): string {
  if (!keyPattern.test(key)) {
    throw new Error(`Secret key "${key}" must be letters, digits and underscores, e.g. STRIPE_KEY`)
  }
  return `<${SECRET_REQUEST_TAG} key="${key}" />`
}

/** Splits a line at its secret-request tags; tags inside `inline code` stay text. */
export function splitSecretRequests(line: string): SecretRequestSegment[] {
  const segments: SecretRequestSegment[] = []
  let textStart = 0
  for (const match of line.matchAll(tagPattern)) {
    const key = match[2]
    if (!key || isInsideCodeSpan(line, match.index)) continue
    if (match.index > textStart)
      segments.push({ type: 'text', text: line.slice(textStart, match.index) })
    segments.push({ type: 'secret-request', key })
    textStart = match.index + match[0].length
  }
  if (textStart < line.length) segments.push({ type: 'text', text: line.slice(textStart) })
  return segments
}

/** The keys requested in a text, in order, without repeats. */
export function findSecretRequests(text: string): string[] {
  const keys = text
    .split('\n')
    .flatMap(splitSecretRequests)
    .flatMap((segment) => (segment.type === 'secret-request' ? [segment.key] : []))
  return [...new Set(keys)]
}

/** While streaming, a tag that has begun but not ended is hidden rather than shown raw. */
export function dropPartialSecretRequest(text: string): string {
  const start = text.lastIndexOf('<')
  if (start === -1 || text.length - start < 2) return text
  const fragment = text.slice(start).toLowerCase()
  if (fragment.includes('>')) return text
  const opening = `<${SECRET_REQUEST_TAG}`
  return opening.startsWith(fragment) || fragment.startsWith(opening) ? text.slice(0, start) : text
}

/** The message sent for the user after the widget saved the secret (docs/product/builder.md). */
export function secretSetMessage(key: string): string {
  return `I've set the secret "${key}". Please continue.`
}

function isInsideCodeSpan(line: string, index: number): boolean {
  let backticks = 0
  for (let position = 0; position < index; position++) if (line[position] === '`') backticks++
  return backticks % 2 === 1
}
