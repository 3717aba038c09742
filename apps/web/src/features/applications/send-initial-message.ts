import { sendMessageResponseSchema } from '@sprout/protocol/api/conversations.ts'
import { apiRequest } from '../../lib/api-client.ts'

export type InitialMessage = {
  applicationId: string
  /** The description typed in the create dialog. */
  message: string
  model: string
}

/**
 * The last step of creating an application (docs/product/applications.md): the description becomes
 * the first message of the application's chat, which starts its first conversation and the agent's
 * first run. The editor then opens on that conversation (the newest) and streams the run.
 */
export async function sendInitialMessage({
  applicationId,
  message,
  model,
}: InitialMessage): Promise<void> {
  sendMessageResponseSchema.parse(
    await apiRequest(`/api/demo/applications/${encodeURIComponent(applicationId)}/message`, {
      method: 'POST',
      body: { message, model },
    }),
  )
}
