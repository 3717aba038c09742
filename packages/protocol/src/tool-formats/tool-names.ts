/** docs/product/tool-calls.md "Tool names": the tools whose calls the chat knows how to show. */
export const toolNames = [
  'add_random',
  'get_time',
  'roll_dice',
  'shell_exec',
  'server_logs',
  'view_file',
  'search',
  'list_files',
  'str_replace',
  'write_file',
  'delete_file',
  'todos',
  'web_search',
  'error_reports_list',
  'error_reports_update',
  'integration_guide',
  'run_checks',
  'browser',
] as const
export type ToolName = (typeof toolNames)[number]

export function isKnownToolName(name: string): name is ToolName {
  return (toolNames as readonly string[]).includes(name)
}
