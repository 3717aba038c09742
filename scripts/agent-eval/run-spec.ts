import type { Model } from '@sprout/protocol/models.ts'
import { followConversation } from './follow-conversation.ts'
import type { PageBrowser } from './page-browser.ts'
import { openPreview } from './preview-access.ts'
import { createReadyApplication, type ProductApi, sendFirstMessage } from './product-api.ts'
import { type CheckOutcome, runSpecChecks } from './run-spec-checks.ts'
import {
  acceptanceState,
  emptyTally,
  productCheckState,
  type RunTally,
  totalTokens,
} from './run-tally.ts'
import type { AppSpec } from './spec-format.ts'
import type { SpecResult } from './spec-result.ts'
import { tokenCost } from './token-cost.ts'

export type SpecContext = {
  api: ProductApi
  model: Model
  browser: PageBrowser
  timeoutMs: number
  signal: AbortSignal
  /** A failed check is followed by a repair turn (the organization's setting). */
  repairs: boolean
}

/**
 * One spec through the product, as a user would: a new app, the prompt sent with the model, the
 * run (and the check after it, and the repair turn if one starts) followed to its end, then the
 * spec's checks against the preview. The app is deleted after, so its dev box is freed.
 */
export async function runSpec(context: SpecContext, spec: AppSpec): Promise<SpecResult> {
  const { api, model, signal } = context
  const started = performance.now()
  const deadline = Date.now() + context.timeoutMs
  let tally: RunTally = emptyTally()
  let checks: CheckOutcome[] = []
  let reason: string | undefined
  let broken = false
  let applicationId: string | undefined
  try {
    const application = await createReadyApplication(
      api,
      { name: spec.name, prompt: spec.prompt, model: model.model },
      signal,
    )
    applicationId = application.id
    const sent = await sendFirstMessage(api, application.id, {
      message: spec.prompt,
      model: model.model,
    })
    const followed = await followConversation(
      api,
      {
        applicationId: application.id,
        conversationId: sent.conversationId,
        firstRunId: sent.runId,
      },
      { deadline, signal, repairs: context.repairs },
    )
    tally = followed
    if (followed.timedOut) {
      broken = true
      reason = `timed out after ${Math.round(context.timeoutMs / 1000)} s`
    } else {
      // A run that ended badly is told; the spec's checks still decide.
      const last = followed.runs.at(-1)
      if (last?.status !== 'finished') {
        const error = followed.errors.at(-1)
        reason = `the run ${last?.status ?? 'never started'}${error ? `: ${error}` : ''}`
      }
      const preview = await openPreview(api, application.previewUrl)
      checks = await runSpecChecks(spec.checks, preview, context.browser)
    }
  } catch (error) {
    broken = true
    reason = error instanceof Error ? error.message : String(error)
  } finally {
    if (applicationId) {
      await api
        .call(`/api/applications/${applicationId}`, { method: 'DELETE' })
        .catch(() => undefined)
    }
  }
  const allChecksPassed =
    checks.length === spec.checks.length && checks.every((check) => check.passed)
  return {
    name: spec.name,
    file: spec.file,
    status: allChecksPassed && !broken ? 'passed' : 'failed',
    reason,
    checks,
    checksTotal: spec.checks.length,
    productCheck: productCheckState(tally),
    repair: tally.repairTitle !== undefined,
    acceptance: { written: tally.acceptanceWritten, state: acceptanceState(tally) },
    steps: tally.steps,
    toolCalls: tally.toolCalls,
    tokens: totalTokens(tally),
    costUsd: tokenCost(tally.tokens, model),
    durationMs: performance.now() - started,
  }
}
