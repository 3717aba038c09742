import { parseTasks, type TaskList, taskSchema } from '@sprout/protocol/tool-formats/tasks.ts'
import { inputField, inputString } from './tool-output-text.ts'

/**
 * The todos tool's list: parsed from its output (docs/product/tool-calls.md "Task"), or from its
 * input while the output has not arrived yet. Tasks without id, known status and title are skipped
 * either way.
 */
export function readTaskList(input: unknown, output: unknown): TaskList {
  if (typeof output === 'string') {
    const parsed = parseTasks(output)
    if (parsed.tasks.length > 0) return parsed
  }
  const rawTasks = inputField(input, 'tasks')
  const tasks = Array.isArray(rawTasks)
    ? rawTasks.flatMap((task) => {
        const parsed = taskSchema.safeParse(task)
        return parsed.success ? [parsed.data] : []
      })
    : []
  const title = inputString(input, 'title')
  return title === undefined ? { tasks } : { title, tasks }
}
