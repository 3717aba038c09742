import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import type { CheckReport } from '@sprout/protocol/api/checks.ts'
import type { RunStatus } from '@sprout/protocol/stream/stream-chunk.ts'
import { repairMessage, repairTitle } from '@sprout/protocol/text/check-problems.ts'
import { runCheck } from '../checks/service.ts'
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
      { db: database.db, box: checked.box, applicationId: checked.applicationId },
      {
        trigger: 'run',
        runId: run.id,
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
  return {
    conversation: input.conversation,
    model: input.model,
    system: input.system,
    userMessage: { text: repairMessage(report), clientId: undefined },
    ...(input.userId ? { userId: input.userId } : {}),
    repairOf: { runId: run.id, title: repairTitle(report) },
  }
}
