import type { Context } from 'hono'
import type { z } from 'zod'
import { badRequest } from '../errors/app-error.ts'

function describeIssues(issues: z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const field = issue.path.length > 0 ? issue.path.join('.') : 'body'
      if (issue.code === 'invalid_type' && issue.input === undefined) {
        return `Missing field "${field}"`
      }
      return `Invalid field "${field}": ${issue.message}`
    })
    .join('; ')
}

/** Reads a JSON body and checks it against a schema; a 400 names the malformed field. */
export async function parseJsonBody<Schema extends z.ZodType>(
  context: Context,
  schema: Schema,
): Promise<z.output<Schema>> {
  const text = await context.req.text()
  let body: unknown
  try {
    body = text.length === 0 ? undefined : JSON.parse(text)
  } catch {
    throw badRequest('Malformed JSON body')
  }
  if (body === undefined) throw badRequest('A JSON body is required')
  const result = schema.safeParse(wellFormed(body), { reportInput: true })
  if (!result.success) throw badRequest(describeIssues(result.error.issues))
  return result.data
}

/**
 * An optional JSON object body: empty means `{}`; anything but an object (`null`, a list, a
 * number) is a 400, as is malformed JSON.
 */
export async function parseOptionalJsonObject(context: Context): Promise<Record<string, unknown>> {
  const text = await context.req.text()
  if (text.trim() === '') return {}
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw badRequest('Malformed JSON body')
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('The JSON body must be an object')
  }
  return wellFormed(body) as Record<string, unknown>
}

/** Lone surrogates in JSON strings become U+FFFD: they are not text, and storage refuses them. */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return value.toWellFormed()
  if (Array.isArray(value)) return value.map(wellFormed)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key.toWellFormed(), wellFormed(item)]),
    )
  }
  return value
}

/** Checks query parameters against a schema; a 400 names the malformed parameter. */
export function parseQuery<Schema extends z.ZodType>(
  context: Context,
  schema: Schema,
): z.output<Schema> {
  const result = schema.safeParse(context.req.query(), { reportInput: true })
  if (!result.success) throw badRequest(describeIssues(result.error.issues))
  return result.data
}
