import type { WorkspaceFiles } from '../../devbox-driver.ts'
import { workspacePathComponents } from '../local/workspace/workspace-path.ts'
import type { FilesRequest } from './agent/agent-protocol.ts'

type AskAgent = (operation: string, argument: FilesRequest) => Promise<unknown>

/**
 * A pod's workspace files through the in-box agent (agent/, decision 040), which applies the
 * same path rules as local boxes inside the pod, where the files are.
 */
export function createBoxFiles(askAgent: AskAgent): WorkspaceFiles {
  const ask = (operation: string, argument: FilesRequest) => {
    // What the path alone shows (`..` out, absolute) is refused here, before a round trip; the
    // agent checks again, with the links it finds on the way.
    workspacePathComponents(argument.path ?? '.')
    return askAgent(operation, argument)
  }
  return {
    read: async (path) => (await ask('read', { path })) as string,
    write: async (path, content) => {
      await ask('write', { path, content })
    },
    delete: async (path) => {
      await ask('delete', { path })
    },
    list: async (path, options) =>
      (await ask('list', { path, recursive: options?.recursive })) as Awaited<
        ReturnType<WorkspaceFiles['list']>
      >,
    search: async (options) =>
      (await ask('search', options)) as Awaited<ReturnType<WorkspaceFiles['search']>>,
  }
}
