/**
 * The app runtime token (decision 019): what other areas use — the tokens themselves and the
 * answer to `GET /integrations/{service}/token` (sprout.internal's handler: internal-requests.ts).
 */
export { type AppTokens, createAppTokens, type TokenOwner } from './app-tokens.ts'
export {
  type AccessTokenSource,
  answerTokenRequest,
  serviceOfTokenPath,
  type TokenAnswer,
} from './integration-token.ts'
