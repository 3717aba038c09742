import { z } from 'zod'

/** docs/product/tool-calls.md "Task"; any other status is dropped together with its task. */
export const taskStatuses = ['incomplete', 'complete', 'canceled'] as const
export const taskStatusSchema = z.enum(taskStatuses)
export type TaskStatus = z.infer<typeof taskStatusSchema>

export const taskSchema = z.object({
  id: z.string().min(1),
  status: taskStatusSchema,
  title: z.string().min(1),
  notes: z.string().optional(),
})
export type Task = z.infer<typeof taskSchema>

export interface TaskList {
  /** From the optional heading line 'text (N):'. */
  title?: string
  tasks: Task[]
}

/**
 * The todos tool's output: an optional `{title} (n):` heading, then per task a `<task>` block of
 * `ID:`, `Status:` and `Title:` lines and, after a blank line, its notes.
 */
export function formatTasks(list: TaskList): string {
  const blocks = list.tasks.map((task) => {
    const header = `ID: ${task.id}\nStatus: ${task.status}\nTitle: ${task.title}`
    const notes = task.notes?.trim()
    return `<task>\n${header}${notes ? `\n\n${notes}` : ''}\n</task>`
  })
  const heading = list.title === undefined ? [] : [`${list.title} (${list.tasks.length}):`]
  return [...heading, ...blocks].join('\n')
}

const headingPattern = /^(.*\S)\s*\((\d+)\):$/
const taggedBlockPattern = /<task>([\s\S]*?)<\/task>/g
const fieldPattern = /^(ID|Status|Title):[ \t]*(.*)$/i

/** Malformed blocks and blocks without id, a known status and a title are skipped. */
export function parseTasks(text: string): TaskList {
  const firstLine = text.trimStart().split('\n', 1)[0]?.trim() ?? ''
  const heading = headingPattern.exec(firstLine)
  const tasks = splitTaskBlocks(text)
    .map(parseTaskBlock)
    .filter((task) => task !== null)
  return heading?.[1] ? { title: heading[1], tasks } : { tasks }
}

function splitTaskBlocks(text: string): string[] {
  const tagged = [...text.matchAll(taggedBlockPattern)].map((match) => match[1] ?? '')
  if (tagged.length > 0) return tagged
  // Untagged output: each task starts at an 'ID:' line.
  return text.split(/^(?=ID:)/im).filter((block) => /^ID:/i.test(block))
}

function parseTaskBlock(block: string): Task | null {
  const lines = block.replace(/\r\n?/g, '\n').replace(/^\n+/, '').split('\n')
  const fields = new Map<string, string>()
  let index = 0
  for (; index < lines.length; index++) {
    const match = fieldPattern.exec(lines[index] ?? '')
    if (!match?.[1]) break
    fields.set(match[1].toLowerCase(), (match[2] ?? '').trim())
  }
  const notes = lines.slice(index).join('\n').trim()
  const parsed = taskSchema.safeParse({
    id: fields.get('id'),
    status: fields.get('status')?.toLowerCase(),
    title: fields.get('title'),
    notes: notes || undefined,
  })
  return parsed.success ? parsed.data : null
}
