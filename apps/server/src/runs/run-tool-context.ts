import type { createLanguageModel } from '@sprout/agent/providers/create-language-model.ts'
import { modelGuideAnswerer } from '@sprout/agent/tools/integration-guide.ts'
import type { IntegrationGuidesAccess, ToolContext } from '@sprout/agent/tools/tool-context.ts'
import { boxBrowser } from '@sprout/devbox/box-browser/box-browser.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import { DEMO_MODEL_ID } from '@sprout/protocol/models.ts'
import { runCheck } from '../checks/service.ts'
import { createOrigins } from '../http/origins.ts'
import { imagesDirOf, storeCheckScreenshot, storeToolScreenshot } from '../images/service.ts'
import { listModels } from '../models/service.ts'
import type { ApplicationSecrets } from '../vault/service.ts'
import { runErrorReports } from './run-error-reports.ts'
import type { ActiveRun, RunEnvironment, StartRunInput } from './run-types.ts'

/** A real model answers integration_guide from the guide (decision 019); the Demo model reads it. */
function guideAnswers(
  modelId: string,
  model: ReturnType<typeof createLanguageModel>,
  run: ActiveRun,
  environment: RunEnvironment,
): IntegrationGuidesAccess | undefined {
  if (modelId === DEMO_MODEL_ID) return undefined
  const options = {
    abortSignal: run.controller.signal,
    maxRetries: environment.settings.maxRetries,
  }
  return { answer: modelGuideAnswerer(model, options) }
}

/**
 * The app's secrets for a run, from the vault's copy: sending the message just read them and the
 * vault reloads on every change, so a second read and decryption (7 ms on PGlite, before the first
 * token) is spared. Read only when not loaded yet.
 */
async function secretsOfRun(environment: RunEnvironment, applicationId: string) {
  const { secrets } = environment
  if (!secrets) return undefined
  return secrets.current(applicationId) ?? (await secrets.load(applicationId))
}

/**
 * The browser tool's page of the app (docs/product/tool-calls.md "browser"), on drivers that say
 * where the dev server is inside the box; its screenshots are the conversation's images.
 */
function runBrowser(environment: RunEnvironment, input: { input: StartRunInput; box: Devbox }) {
  const { box } = input
  if (!environment.config.browserTool || !box.devServer.urlInside) return {}
  const { conversation, userId, model } = input.input
  const store = { db: environment.database.db, directory: imagesDirOf(environment.config) }
  return {
    browser: boxBrowser(box),
    modelReadsImages:
      listModels(environment.config).find((each) => each.model === model)?.images === true,
    ...(userId
      ? {
          storeScreenshot: (bytes: Buffer) =>
            storeToolScreenshot(
              store,
              {
                organizationId: conversation.organizationId,
                userId,
                conversationId: conversation.id,
              },
              bytes,
            ),
        }
      : {}),
  }
}

/**
 * What a builder run's tools work with: the box, the app's errors, the guides and its check. The
 * vault's values reach the agent's commands as environment variables, and are redacted from
 * everything the tools return or stream (docs/product/vault.md "Where values go"); the latest
 * values are used, so a secret set during a run is there for the next command.
 */
export async function runToolContext(
  environment: RunEnvironment,
  input: {
    run: ActiveRun
    input: StartRunInput
    model: ReturnType<typeof createLanguageModel>
    box: Devbox
    applicationId: string
    startedAt: Date
  },
): Promise<{ context: ToolContext; secrets: () => ApplicationSecrets | undefined }> {
  const { run, box, applicationId, startedAt } = input
  const { database } = environment
  const loaded = await secretsOfRun(environment, applicationId)
  const secrets = () => environment.secrets?.current(applicationId) ?? loaded
  const context: ToolContext = {
    errorReports: runErrorReports({
      db: database.db,
      origins: createOrigins(environment.config),
      organizationId: input.input.conversation.organizationId,
      applicationId,
    }),
    integrationGuides: guideAnswers(input.input.model, input.model, run, environment),
    // docs/product/checks.md "run_checks": new errors are those since this run started.
    checks: {
      run: (signal) =>
        runCheck(
          {
            db: database.db,
            box,
            applicationId,
            storeScreenshot: (bytes) =>
              storeCheckScreenshot(
                { db: database.db, directory: imagesDirOf(environment.config) },
                { organizationId: input.input.conversation.organizationId, applicationId },
                bytes,
              ),
          },
          {
            trigger: 'tool',
            runId: run.id,
            acceptanceTests: environment.config.acceptanceTests,
            errorsSince: startedAt,
            redact: (value) => secrets()?.redactor.redactValue(value) ?? value,
            ...(signal ? { signal } : {}),
          },
        ),
    },
    devbox: {
      files: box.files,
      devServer: box.devServer,
      exec: (command, options) =>
        box.exec(command, { ...options, env: { ...secrets()?.env, ...options.env } }),
    },
    redact: (text) => secrets()?.redactor.redact(text) ?? text,
    redactStream: () =>
      secrets()?.redactor.stream() ?? { push: (text: string) => text, flush: () => '' },
    webSearch: environment.config.webSearch,
    ...runBrowser(environment, input),
  }
  return { context, secrets }
}
