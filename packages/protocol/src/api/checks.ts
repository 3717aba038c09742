import { z } from 'zod'

// docs/product/checks.md: the check after every run (type check, build, the server's health,
// new errors, the app's acceptance tests), shown on the run, in the builder's header and by the run_checks tool. One
// contract for the server, the agent and the web.

export const CHECK_PART_NAMES = ['types', 'build', 'health', 'errors', 'acceptance'] as const
export type CheckPartName = (typeof CHECK_PART_NAMES)[number]

/** The label of each part, as the Checks block groups problems. */
export const CHECK_PART_LABELS: Record<CheckPartName, string> = {
  types: 'Type check',
  build: 'Build',
  health: 'Server health',
  errors: 'New errors',
  acceptance: 'Acceptance tests',
}

/** The whole check's budget; each part has its own within it (docs/product/checks.md). */
export const CHECK_BUDGET_SECONDS = 120

/** Problems kept per part; `problemCount` tells the true number. */
export const CHECK_PROBLEMS_KEPT = 50

export const CHECK_TEXTS = {
  title: 'Checks',
  running: 'Checking…',
  passed: 'All checks passed',
  interrupted: 'The check was stopped.',
  busy: 'A check of this app is already running.',
  noBox: 'The dev box of this application is not ready yet. Wait for the preview, then retry.',
} as const

export const checkProblemSchema = z.object({
  /** Relative to the workspace root, when the problem points at a file. */
  file: z.string().nullable(),
  line: z.number().int().nullable(),
  column: z.number().int().nullable(),
  /** The first line of the message. */
  message: z.string(),
  /** The whole text (a stack, the build's output around the error), cut to a few KB. */
  text: z.string(),
  /**
   * A failing acceptance test's page at the failure: a stored image (GET /api/images/{id}),
   * absent for other problems.
   */
  screenshot: z
    .object({ id: z.string(), width: z.number().int(), height: z.number().int() })
    .nullable()
    .optional(),
})
export type CheckProblem = z.infer<typeof checkProblemSchema>

export const CHECK_PART_STATUSES = [
  'pending',
  'running',
  'passed',
  'failed',
  'timed-out',
  'skipped',
] as const
export type CheckPartStatus = (typeof CHECK_PART_STATUSES)[number]

export const checkPartSchema = z.object({
  name: z.enum(CHECK_PART_NAMES),
  status: z.enum(CHECK_PART_STATUSES),
  problems: z.array(checkProblemSchema),
  /** The true number of problems; at most CHECK_PROBLEMS_KEPT are in `problems`. */
  problemCount: z.number().int(),
  durationMs: z.number().nullable(),
  /** Why it was skipped or timed out ('No server in this app', 'Timed out after 30 s'). */
  note: z.string().nullable(),
})
export type CheckPart = z.infer<typeof checkPartSchema>

export const CHECK_STATES = ['running', 'passed', 'failed', 'interrupted'] as const
export type CheckState = (typeof CHECK_STATES)[number]

/** After a run (`run`), by the agent's run_checks tool (`tool`), or a user's Check now (`manual`). */
export const CHECK_TRIGGERS = ['run', 'tool', 'manual'] as const
export type CheckTrigger = (typeof CHECK_TRIGGERS)[number]

/** A check, as it runs and when done: the `data-checks` chunk, the tool's output, the API. */
export const checkReportSchema = z.object({
  id: z.string(),
  state: z.enum(CHECK_STATES),
  trigger: z.enum(CHECK_TRIGGERS),
  parts: z.array(checkPartSchema),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
})
export type CheckReport = z.infer<typeof checkReportSchema>

/** GET /api/applications/{id}/checks/latest: the app's last check (null when never checked). */
export type LatestCheckResponse = {
  check: (CheckReport & { runId: string | null }) | null
}

/** The number of problems of a finished check. */
export function countProblems(report: Pick<CheckReport, 'parts'>): number {
  return report.parts.reduce(
    (total, part) =>
      total +
      (part.status === 'failed' || part.status === 'timed-out'
        ? Math.max(1, part.problemCount)
        : 0),
    0,
  )
}

/** GET and PUT /api/organizations/{id}/check-settings (PUT: owners and admins). */
export type CheckSettingsResponse = {
  /** The organization's choice: a repair turn after a check that found problems. */
  autoRepair: boolean
  /** False when the installation turned repairs off (`AUTO_REPAIR=off`): nothing repairs. */
  installationAllows: boolean
}
export const updateCheckSettingsSchema = z.object({ autoRepair: z.boolean() })
