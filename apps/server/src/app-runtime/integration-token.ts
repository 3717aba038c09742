import { AppError } from '../http/app-error.ts'
import type { AppTokens } from './app-tokens.ts'

/** A fresh access token of one of the organization's connections (integrations/service.ts). */
export type AccessTokenSource = (
  organizationId: string,
  serviceName: string,
) => Promise<{ accessToken: string; expiresAt: Date | string | null | undefined }>

/** `/integrations/{service}/token`, the one path an app token opens. */
const tokenPath = /^\/integrations\/([A-Za-z0-9][A-Za-z0-9._-]{0,99})\/token$/

/** The service a path asks a token for, or undefined when it is not the token path. */
export function serviceOfTokenPath(pathname: string): string | undefined {
  return tokenPath.exec(pathname)?.[1]
}

export type TokenAnswer = { status: number; body: Record<string, unknown> }

const refused = (error: string): TokenAnswer => ({ status: 401, body: { error } })

/**
 * `GET /integrations/{service}/token` (decision 019): app token → application → organization →
 * fresh access token. Through sprout.internal the asking box must be the token's application's; at
 * PUBLIC_URL (unconfined boxes) the token alone says who asks.
 */
export async function answerTokenRequest(input: {
  authorization: string | undefined
  service: string
  /** The application of the calling box (sprout.internal); absent at PUBLIC_URL. */
  box?: { applicationId: string | undefined }
  appTokens: AppTokens
  accessToken: AccessTokenSource
}): Promise<TokenAnswer> {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(input.authorization ?? '')?.[1]
  if (!bearer) return refused('Send Authorization: Bearer $SPROUT_APP_TOKEN')
  const owner = await input.appTokens.ownerOf(bearer)
  if (!owner) return refused('This app token is not valid (was the app deleted?)')
  if (input.box && input.box.applicationId !== owner.applicationId) {
    return refused("This app token is not this app's")
  }
  try {
    const { accessToken, expiresAt } = await input.accessToken(owner.organizationId, input.service)
    return {
      status: 200,
      body: {
        access_token: accessToken,
        expires_at: expiresAt ? new Date(expiresAt).toISOString() : null,
      },
    }
  } catch (error) {
    // Not connected, or it needs reconnecting: the app's route shows the reason.
    if (error instanceof AppError) return { status: error.status, body: { error: error.message } }
    throw error
  }
}
