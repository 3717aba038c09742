/** Calls to the auth kit's server routes, with the message a user should read when one fails. */
export type AuthAnswer =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; code: string | undefined; message: string }

const messages: Record<string, string> = {
  EMAIL_NOT_VERIFIED: 'Confirm your email address first: we sent you a new link.',
  INVALID_EMAIL_OR_PASSWORD: 'Wrong email or password.',
  INVALID_EMAIL: 'That email address does not look right.',
  PASSWORD_TOO_SHORT: 'Use at least 8 characters for the password.',
  INVALID_TOKEN: 'This link has expired or was already used: ask for a new one.',
}

export async function postAuth(path: string, body: object): Promise<AuthAnswer> {
  try {
    const response = await fetch(`/api/auth/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>
    if (response.ok) return { ok: true, body: answer }
    const code = typeof answer.code === 'string' ? answer.code : undefined
    return { ok: false, code, message: messageFor(response.status, code, answer.message) }
  } catch {
    return { ok: false, code: undefined, message: 'The server did not answer: try again.' }
  }
}

function messageFor(status: number, code: string | undefined, message: unknown): string {
  if (code && messages[code]) return messages[code]
  if (status === 429) return 'Too many tries: wait a minute and try again.'
  return typeof message === 'string' && message ? message : 'Something went wrong: try again.'
}
