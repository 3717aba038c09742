import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { APPLICATION_NAME_MAX, INITIAL_PROMPT_MAX } from '@sprout/protocol/api/applications.ts'
import { z } from 'zod'

// The format of an app specification (docs/product/agent-eval.md "Specs"): a prompt, and the
// checks run against the built app through its preview.

const httpMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

const requestCheckSchema = z.strictObject({
  /** A label for the table; the request line by default. */
  name: z.string().min(1).optional(),
  request: z.strictObject({
    method: z.enum(httpMethods).default('GET'),
    path: z.string().startsWith('/', 'must start with /'),
    /** Sent as JSON. */
    body: z.unknown().optional(),
  }),
  expect: z
    .strictObject({
      status: z.number().int().min(100).max(599).optional(),
      bodyContains: z.string().min(1).optional(),
      /** A subset of the JSON answer (docs/product/agent-eval.md "Matching JSON"). */
      json: z.unknown().optional(),
    })
    .refine((expected) => Object.keys(expected).length > 0, 'must expect a status, text or JSON'),
})

const pageCheckSchema = z.strictObject({
  name: z.string().min(1).optional(),
  page: z.string().startsWith('/', 'must start with /'),
  text: z.string().min(1),
})

/**
 * A check is a page check when it has `page`, else a request check: each is validated by its own
 * schema, so a problem names its field rather than 'Invalid input' of a union.
 */
const checkSchema = z.unknown().transform((value, context) => {
  const isPage = typeof value === 'object' && value !== null && 'page' in value
  const parsed = (isPage ? pageCheckSchema : requestCheckSchema).safeParse(value)
  if (parsed.success) return parsed.data as RequestCheck | PageCheck
  for (const issue of parsed.error.issues) {
    context.addIssue({ code: 'custom', message: issue.message, path: issue.path })
  }
  return z.NEVER
})

const specSchema = z.strictObject({
  // Also the name of the spec's app.
  name: z.string().min(1).max(APPLICATION_NAME_MAX),
  prompt: z.string().min(1).max(INITIAL_PROMPT_MAX),
  checks: z.array(checkSchema).min(1),
})

export type RequestCheck = z.infer<typeof requestCheckSchema>
export type PageCheck = z.infer<typeof pageCheckSchema>
export type SpecCheck = RequestCheck | PageCheck
export type AppSpec = z.infer<typeof specSchema> & { file: string }

export class SpecError extends Error {
  override name = 'SpecError'
}

export const isPageCheck = (check: SpecCheck): check is PageCheck => 'page' in check

/** The label of a check in the table and its messages. */
export function checkLabel(check: SpecCheck): string {
  if (check.name) return check.name
  if (isPageCheck(check)) return `page ${check.page} shows "${check.text}"`
  return `${check.request.method} ${check.request.path}`
}

/**
 * One spec from its file's text; a problem names the file and the field
 * (`evals/agent/x.json: checks.1.expect: must expect a status, text or JSON`).
 */
export function parseSpec(file: string, text: string): AppSpec {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new SpecError(`${file}: not JSON (${(error as Error).message})`)
  }
  const parsed = specSchema.safeParse(json)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const field = issue.path.length > 0 ? issue.path.join('.') : '(the spec)'
      return `${file}: ${field}: ${issue.message}`
    })
    throw new SpecError(problems.join('\n'))
  }
  return { ...parsed.data, file }
}

/** Every `*.json` of `directory`, by file name; names must be unique. */
export async function loadSpecs(directory: string): Promise<AppSpec[]> {
  let entries: string[]
  try {
    entries = await readdir(directory)
  } catch {
    throw new SpecError(`${directory}: no such folder of specs`)
  }
  const files = entries.filter((entry) => entry.endsWith('.json')).sort()
  if (files.length === 0) throw new SpecError(`${directory}: no .json specs in it`)
  const specs: AppSpec[] = []
  const problems: string[] = []
  for (const entry of files) {
    const file = path.join(directory, entry)
    try {
      specs.push(parseSpec(file, await readFile(file, 'utf8')))
    } catch (error) {
      problems.push(error instanceof SpecError ? error.message : String(error))
    }
  }
  const seen = new Set<string>()
  for (const spec of specs) {
    if (seen.has(spec.name)) problems.push(`${spec.file}: name: "${spec.name}" is used twice`)
    seen.add(spec.name)
  }
  if (problems.length > 0) throw new SpecError(problems.join('\n'))
  return specs
}
