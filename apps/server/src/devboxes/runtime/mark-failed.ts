import { devboxes } from '@sprout/db/schema/devboxes.ts'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { createSecretRedactor } from '@sprout/protocol/text/redact-secrets.ts'
import { toStorableText } from '@sprout/protocol/text/well-formed.ts'
import { eq } from 'drizzle-orm'
import { environmentFor } from './app-environment.ts'
import type { DevboxRuntimeState } from './devbox-runtime-state.ts'

/** The application's box could not be provisioned or opened: recorded failed, with why. */
export async function markFailed(state: DevboxRuntimeState, applicationId: string, error: unknown) {
  // A dev server's output may print a vault value: it is redacted (docs/product/vault.md).
  const message = createSecretRedactor(await environmentFor(state, applicationId)).redact(
    error instanceof Error ? error.message : String(error),
  )
  state.logger.error('dev box failed', { applicationId, error: message })
  state.states.set(applicationId, 'failed')
  await state.db
    .update(devboxes)
    .set({ status: 'failed', error: toStorableText(cutText(message, 2000)) })
    .where(eq(devboxes.applicationId, applicationId))
}
