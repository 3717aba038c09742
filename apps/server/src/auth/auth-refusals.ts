/**
 * better-auth's refusals that a user reads, in the product's words (docs/product/auth.md
 * "Email verification"); the code stays, so clients can still tell them apart.
 */
export const authRefusalTexts: Record<string, string> = {
  EMAIL_NOT_VERIFIED: 'Confirm your email address first: we sent a new link to it.',
}

export async function explainAuthRefusal(response: Response): Promise<Response> {
  if (response.status !== 403) return response
  let fields: Record<string, unknown>
  try {
    fields = (await response.clone().json()) as Record<string, unknown>
  } catch {
    return response
  }
  const text = typeof fields?.code === 'string' ? authRefusalTexts[fields.code] : undefined
  if (!text) return response
  const headers = new Headers(response.headers)
  headers.delete('content-length')
  return new Response(JSON.stringify({ ...fields, message: text, error: text }), {
    status: response.status,
    headers,
  })
}
