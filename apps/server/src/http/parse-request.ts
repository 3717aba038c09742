import { exceedsJsonDepth, jsonTooDeepMessage } from '@sprout/protocol/text/json-depth.ts'
import { toStorableJson } from '@sprout/protocol/text/well-formed.ts'
import type { Context } from 'hono'
import type { z } from 'zod'
import { badRequest } from './app-error.ts'

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

/**
 * JSON.parse of a request body: a 400 when malformed, or nested deeper than JSON_MAX_DEPTH
 * before anything parses it (request-guards.ts checks /api/* first; this keeps every caller safe).
 */
export function parseJsonText(text: string): unknown {
  if (exceedsJsonDepth(text)) throw badRequest(jsonTooDeepMessage())
  try {
    return JSON.parse(text)
  } catch {
    throw badRequest('Malformed JSON body')
  }
}

/** Reads a JSON body and checks it against a schema; a 400 names the malformed field. */
export async function parseJsonBody<Schema extends z.ZodType>(
  context: Context,
  schema: Schema,
): Promise<z.output<Schema>> {
  const text = await context.req.text()
  const body = text.length === 0 ? undefined : parseJsonText(text)
  if (body === undefined) throw badRequest('A JSON body is required')
  const result = schema.safeParse(toStorableJson(body), { reportInput: true })
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
  const body = parseJsonText(text)
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('The JSON body must be an object')
  }
  // Lone surrogates become U+FFFD (NUL bytes were refused before: request-guards.ts).
  return toStorableJson(body) as Record<string, unknown>
}

/** Checks a value already read (e.g. an optional body) against a schema, with the same 400s. */
export function parseValue<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
): z.output<Schema> {
  const result = schema.safeParse(value, { reportInput: true })
  if (!result.success) throw badRequest(describeIssues(result.error.issues))
  return result.data
}

/** An optional JSON object body (empty means `{}`) checked against a schema. */
export async function parseOptionalJsonBody<Schema extends z.ZodType>(
  context: Context,
  schema: Schema,
): Promise<z.output<Schema>> {
  return parseValue(schema, await parseOptionalJsonObject(context))
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
