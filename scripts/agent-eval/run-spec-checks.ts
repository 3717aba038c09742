import { findMismatch } from './json-subset.ts'
import type { PageBrowser } from './page-browser.ts'
import type { PreviewAccess } from './preview-access.ts'
import { checkLabel, isPageCheck, type RequestCheck, type SpecCheck } from './spec-format.ts'

export type CheckOutcome = { label: string; passed: boolean; problem: string | undefined }

/** The spec's checks against the built app, in order (a request may prepare the next one). */
export async function runSpecChecks(
  checks: SpecCheck[],
  preview: PreviewAccess,
  browser: PageBrowser,
): Promise<CheckOutcome[]> {
  const outcomes: CheckOutcome[] = []
  for (const check of checks) {
    let problem: string | undefined
    try {
      problem = isPageCheck(check)
        ? await browser.findText(preview, check.page, check.text)
        : await requestProblem(check, preview)
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error)
    }
    outcomes.push({ label: checkLabel(check), passed: problem === undefined, problem })
  }
  return outcomes
}

/** A dev server restarting after the agent's last edit answers a gateway error for a moment. */
const restartWaitMs = 30_000
const isGatewayError = (status: number) => status >= 502 && status <= 504

async function requestProblem(check: RequestCheck, preview: PreviewAccess) {
  const deadline = Date.now() + restartWaitMs
  let answer = await preview.request(check.request)
  while (isGatewayError(answer.status) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    answer = await preview.request(check.request)
  }
  const expected = check.expect
  const excerpt = answer.body.slice(0, 200)
  if (expected.status !== undefined && answer.status !== expected.status) {
    return `status ${answer.status}, expected ${expected.status}: ${excerpt}`
  }
  if (expected.bodyContains !== undefined && !answer.body.includes(expected.bodyContains)) {
    return `the answer does not contain "${expected.bodyContains}": ${excerpt}`
  }
  if (expected.json !== undefined) {
    let json: unknown
    try {
      json = JSON.parse(answer.body)
    } catch {
      return `the answer is not JSON: ${excerpt}`
    }
    const mismatch = findMismatch(expected.json, json)
    if (mismatch) return `JSON ${mismatch}`
  }
  return undefined
}
