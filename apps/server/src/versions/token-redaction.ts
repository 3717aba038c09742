/** What stands for the token in a text that is shown or logged. */
const hidden = '[token]'

/** Runs of base64, base64url or URL-encoded text: what a header or a URL could carry a token in. */
const encodedRun = /(?:[A-Za-z0-9+/_=-]|%[0-9A-Fa-f]{2})+/g

/**
 * docs/product/versions.md "Push to Git": a git host's answer may echo the token back, raw or
 * encoded (the Basic header git sent, `user:token` in base64, URL-encoded). Every run that is
 * the token or decodes to something holding it is replaced, whatever user name was put with it.
 */
export function redactToken(text: string, token: string | undefined): string {
  if (!token) return text
  let redacted = text
  for (const form of knownForms(token)) redacted = redacted.split(form).join(hidden)
  // Decoding every run would find a short token in random bytes; a real token is longer.
  if (token.length < 6) return redacted
  return redacted.replace(encodedRun, (run) => (holdsToken(run, token) ? hidden : run))
}

function knownForms(token: string): string[] {
  const forms = [
    token,
    encodeURIComponent(token),
    Buffer.from(token).toString('hex'),
    ...['x-access-token', 'oauth2', 'git', 'user', ''].flatMap((user) => {
      const bytes = Buffer.from(user ? `${user}:${token}` : token)
      return [bytes.toString('base64'), bytes.toString('base64url')]
    }),
  ]
  // The longest first, so that no shorter form leaves a part of a longer one behind.
  return [...new Set(forms)].filter(Boolean).sort((first, second) => second.length - first.length)
}

function holdsToken(run: string, token: string): boolean {
  const tokenBytes = Buffer.from(token)
  const candidates = new Set([run])
  try {
    candidates.add(decodeURIComponent(run))
  } catch {
    // Not URL-encoded after all: the run as it is.
  }
  for (const candidate of candidates) {
    if (candidate.includes(token)) return true
    // The token may start at any byte of what was encoded: try each of base64's 4 alignments.
    for (let offset = 0; offset < 4; offset++) {
      const part = candidate.slice(offset)
      for (const encoding of ['base64', 'base64url'] as const) {
        if (Buffer.from(part, encoding).includes(tokenBytes)) return true
      }
    }
  }
  return false
}
