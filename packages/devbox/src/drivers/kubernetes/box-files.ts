import type { WorkspaceFiles, WorkspacePathErrorCode } from '../../devbox-driver.ts'
import { WorkspacePathError } from '../../devbox-driver.ts'
import { workspacePathComponents } from '../local/workspace/workspace-path.ts'
import type { PodExecInput } from './pod-exec.ts'

type RunInPod = (input: Omit<PodExecInput, 'namespace' | 'pod'>) => Promise<number>
type AgentAnswer = { value?: unknown; error?: { message: string; code?: WorkspacePathErrorCode } }

/**
 * A pod's workspace files through the in-box agent (agent/box-agent.ts), which applies the same
 * path rules as local boxes inside the pod, where the files are (decision 037). Each call starts
 * the agent anew for now: a long-running agent serving every verb is decision 037's next step.
 */
export function createBoxFiles(run: RunInPod, agentPath: string): WorkspaceFiles {
  const ask = async (
    operation: string,
    argument: { path?: string; recursive?: boolean },
    stdin?: string,
  ): Promise<unknown> => {
    // What the path alone shows (`..` out, absolute) is refused here, before a round trip; the
    // agent checks again, with the links it finds on the way.
    workspacePathComponents(argument.path ?? '.')
    const chunks: Buffer[] = []
    await run({
      command: ['node', agentPath, operation, JSON.stringify(argument)],
      stdin: stdin === undefined ? undefined : Buffer.from(stdin, 'utf8'),
      onStdout: (data) => chunks.push(data),
    })
    const printed = Buffer.concat(chunks).toString('utf8')
    let answer: AgentAnswer
    try {
      answer = JSON.parse(printed) as AgentAnswer
    } catch {
      throw new Error(
        `The box's agent answered ${operation} with no answer: ${printed.slice(0, 500)}`,
      )
    }
    if (answer.error) {
      if (answer.error.code) throw new WorkspacePathError(answer.error.message, answer.error.code)
      throw new Error(answer.error.message)
    }
    return answer.value
  }
  return {
    read: async (path) => (await ask('read', { path })) as string,
    write: async (path, content) => {
      await ask('write', { path }, content)
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
