import path from 'node:path'
import { createSecretRedactor } from '@sprout/protocol/text/redact-secrets.ts'
import { AppServerStartError } from './app-server-instance.ts'
import {
  type AppEntry,
  type AppServerManagerState,
  appendAppLog,
} from './app-server-manager-state.ts'

/**
 * Starts a server of one deploy. It gets the app's secrets; what it prints is kept and reported
 * with their values redacted (docs/product/vault.md "Redaction"), so no log or error of Sprout
 * carries one.
 */
export async function launchAppServer(
  { options }: AppServerManagerState,
  entry: AppEntry,
  deployId: string,
) {
  const env = (await options.environmentFor?.(entry.appId)) ?? {}
  const redactor = createSecretRedactor(env)
  const output = redactor.stream()
  try {
    return await options.startAppServer({
      appId: entry.appId,
      deployId,
      deployPath: path.join(options.deploysDir, entry.appId, deployId),
      dataPath: path.join(options.deploysDir, entry.appId, 'data'),
      healthTimeoutMs: options.healthTimeoutMs,
      onOutput: (text) => appendAppLog(entry, output.push(text)),
      env,
    })
  } catch (error) {
    appendAppLog(entry, output.flush())
    if (!(error instanceof AppServerStartError) || redactor.empty) throw error
    throw new AppServerStartError(redactor.redact(error.message), redactor.redact(error.output))
  }
}
