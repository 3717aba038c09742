import type { ToolName } from '@sprout/protocol/tool-formats/tool-names.ts'
import { type Schema, type Tool, zodSchema } from 'ai'
import type { z } from 'zod'
import { createAddRandomTool } from './add-random.ts'
import { createBrowserTool } from './browser.ts'
import { createDeleteFileTool } from './delete-file.ts'
import { createErrorReportsListTool } from './error-reports-list.ts'
import { createErrorReportsUpdateTool } from './error-reports-update.ts'
import { createGetTimeTool } from './get-time.ts'
import { createIntegrationGuideTool } from './integration-guide.ts'
import { createListFilesTool } from './list-files.ts'
import { orderToolCalls } from './order-tool-calls.ts'
import { createRollDiceTool } from './roll-dice.ts'
import { createRunChecksTool } from './run-checks.ts'
import { createSearchTool } from './search.ts'
import { createServerLogsTool } from './server-logs.ts'
import { createShellExecTool } from './shell-exec.ts'
import { createStrReplaceTool } from './str-replace.ts'
import { createTodosTool } from './todos.ts'
import type { ToolContext } from './tool-context.ts'
import { createViewFileTool } from './view-file.ts'
import { createWebSearchTool, isWebSearchConfigured } from './web-search.ts'
import { createWriteFileTool } from './write-file.ts'

/**
 * Every tool (docs/product/tool-calls.md) that the agent runs itself; web_search only when
 * configured, the error tools only when the run has its application's errors, browser only with
 * the app's box.
 */
export function createAgentTools(context: ToolContext) {
  const tools = {
    write_file: createWriteFileTool(context),
    view_file: createViewFileTool(context),
    str_replace: createStrReplaceTool(context),
    delete_file: createDeleteFileTool(context),
    list_files: createListFilesTool(context),
    search: createSearchTool(context),
    shell_exec: createShellExecTool(context),
    server_logs: createServerLogsTool(context),
    integration_guide: createIntegrationGuideTool(context),
    todos: createTodosTool(context),
    add_random: createAddRandomTool(context),
    get_time: createGetTimeTool(context),
    roll_dice: createRollDiceTool(context),
  } satisfies Partial<Record<ToolName, Tool>>
  // The tools only some runs have: the app's errors and its check.
  const errorTools: Record<string, Tool> = context.errorReports
    ? {
        error_reports_list: createErrorReportsListTool(context),
        error_reports_update: createErrorReportsUpdateTool(context),
      }
    : {}
  if (context.checks) errorTools.run_checks = createRunChecksTool(context)
  if (context.browser) errorTools.browser = createBrowserTool(context)
  if (!isWebSearchConfigured(context.webSearch)) {
    return orderToolCalls(withConvertedSchemas({ ...tools, ...errorTools }))
  }
  return orderToolCalls(
    withConvertedSchemas({ ...tools, ...errorTools, web_search: createWebSearchTool(context) }),
  )
}

/** Each tool's zod input schema, as the AI SDK's schema whose JSON Schema is kept once made. */
const convertedSchemas = new WeakMap<z.ZodType, Schema>()

/**
 * The AI SDK turns a zod input schema into JSON Schema at every model call (a new wrapper each
 * time): for these tools that was 1.3–1.8 ms on the way to every step's first token. Wrapped
 * once per process instead; validation is the same (zod's safeParseAsync).
 */
function withConvertedSchemas<Tools extends Record<string, Tool>>(tools: Tools): Tools {
  const converted: Record<string, Tool> = {}
  for (const [name, tool] of Object.entries(tools)) {
    const input = tool.inputSchema as unknown
    if (!(input && typeof input === 'object' && '_zod' in input)) {
      converted[name] = tool
      continue
    }
    const zod = input as z.ZodType
    let schema = convertedSchemas.get(zod)
    if (!schema) {
      schema = zodSchema(zod)
      convertedSchemas.set(zod, schema)
    }
    converted[name] = { ...tool, inputSchema: schema } as Tool
  }
  return converted as Tools
}

export type AgentTools = ReturnType<typeof createAgentTools>
