import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import type { CheckReport } from '@sprout/protocol/api/checks.ts'
import type { RunStatus } from '@sprout/protocol/stream/stream-chunk.ts'
import { repairMessage, repairTitle } from '@sprout/protocol/text/check-problems.ts'
import { runCheck } from '../checks/service.ts'
import { imagesDirOf, screenshotsAsChatImages, storeCheckScreenshot } from '../images/service.ts'
import { listModels } from '../models/service.ts'
import { repairsAutomatically } from '../organizations/service.ts'
import { emitSafely } from './close-run.ts'
import type { ActiveRun, RunEnvironment, StartRunInput } from './run-types.ts'

export type CheckedRun = {
  box: Devbox
  applicationId: string
  startedAt: Date
  status: Exclude<RunStatus, 'running'>
}

/**
 * The check after a run that changed files, streamed on the run as `data-checks` (docs/product/
 * checks.md "The check"); answers the repair turn to start, if this run gets one: a finished run
 * whose check found problems, not itself a repair, in an organization that repairs.
 */
export async function checkAfterRun(
  environment: RunEnvironment,
  run: ActiveRun,
  input: StartRunInput,
  checked: CheckedRun,
): Promise<StartRunInput | undefined> {
  const { database, store, config } = environment
  let report: CheckReport
  try {
    // The run's own copy of the app's secrets (kept fresh by the vault): no second read.
    const secrets = environment.secrets
    const loaded =
      secrets?.current(checked.applicationId) ?? (await secrets?.load(checked.applicationId))
    const redactor = loaded?.redactor
    report = await runCheck(
      {
        db: database.db,
        box: checked.box,
        applicationId: checked.applicationId,
        storeScreenshot: (bytes) =>
          storeCheckScreenshot(
            { db: database.db, directory: imagesDirOf(config) },
            {
              organizationId: input.conversation.organizationId,
              applicationId: checked.applicationId,
            },
            bytes,
          ),
      },
      {
        trigger: 'run',
        runId: run.id,
        acceptanceTests: config.acceptanceTests,
        errorsSince: checked.startedAt,
        signal: run.controller.signal,
        ...(redactor ? { redact: redactor.redactValue } : {}),
        onProgress: (progress) =>
          emitSafely(store, run, { type: 'data-checks', id: progress.id, data: progress }),
      },
    )
  } catch (error) {
    console.error('[runs] the check after the run failed:', error)
    return undefined
  } finally {
    await store.flush(run.conversationId).catch(() => undefined)
  }
  const repairs =
    report.state === 'failed' &&
    checked.status === 'finished' &&
    input.repairOf === undefined &&
    !run.shuttingDown &&
    !environment.isHalted()
  if (!repairs) return undefined
  const organizationId = input.conversation.organizationId
  if (!(await repairsAutomatically(database.db, organizationId, config.autoRepair))) {
    return undefined
  }
  const images = await repairImages(environment, input, checked.applicationId, report)
  return {
    conversation: input.conversation,
    model: input.model,
    system: input.system,
    userMessage: {
      text: repairMessage(report),
      clientId: undefined,
      ...(images.length > 0 ? { images } : {}),
    },
    ...(input.userId ? { userId: input.userId } : {}),
    repairOf: { runId: run.id, title: repairTitle(report) },
  }
}

/**
 * The failing acceptance tests' screenshots, as the repair message's images, for a model that
 * reads images; none for others (the message says a screenshot was taken) or when it cannot be.
 */
async function repairImages(
  environment: RunEnvironment,
  input: StartRunInput,
  applicationId: string,
  report: CheckReport,
) {
  const model = listModels(environment.config).find((each) => each.model === input.model)
  if (!model?.images || !input.userId) return []
  const ids = report.parts.flatMap((part) =>
    part.problems.flatMap((problem) => (problem.screenshot ? [problem.screenshot.id] : [])),
  )
  try {
    return await screenshotsAsChatImages(
      { db: environment.database.db, directory: imagesDirOf(environment.config) },
      {
        ids,
        applicationId,
        organizationId: input.conversation.organizationId,
        userId: input.userId,
        conversationId: input.conversation.id,
      },
    )
  } catch (error) {
    console.error('[runs] the screenshots for the repair turn were not attached:', error)
    return []
  }
}
