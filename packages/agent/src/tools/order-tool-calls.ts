import type { ToolName } from '@sprout/protocol/tool-formats/tool-names.ts'
import type { Tool } from 'ai'

// Tools that change the workspace's files (docs/architecture/agent-loop.md
// "Parallel tool calls").
const fileChangingTools: ReadonlySet<string> = new Set<ToolName>([
  'write_file',
  'str_replace',
  'delete_file',
])

type Execute = (input: unknown, options: unknown) => unknown

/**
 * A step's calls run at once, except that file-changing calls run one at a time in issue order and
 * every later call waits for the changes issued before it, so a command after a write sees the
 * file. The SDK starts each `execute` in issue order.
 */
export function orderToolCalls<Tools extends Record<string, Tool>>(tools: Tools): Tools {
  let changesIssued: Promise<unknown> = Promise.resolve()
  const ordered: Record<string, Tool> = {}
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute as Execute | undefined
    if (!execute) {
      ordered[name] = tool
      continue
    }
    const run: Execute = (input, options) => {
      const call = changesIssued.then(() => execute(input, options))
      // A failed change is the model's to see; it does not hold back the calls after it.
      if (fileChangingTools.has(name)) changesIssued = call.catch(() => undefined)
      return call
    }
    ordered[name] = { ...tool, execute: run } as Tool
  }
  return ordered as Tools
}
