import { PassThrough } from 'node:stream'
import { WorkspacePathError, type WorkspacePathErrorCode } from '../../devbox-driver.ts'
import { extractFolderTar } from '../../folder-archive/extract-folder-tar.ts'
import type { PodExecInput } from './pod-exec.ts'

type RunInPod = (input: Omit<PodExecInput, 'namespace' | 'pod'>) => Promise<number>

/**
 * A pod's `copyFolderOut`: the in-box agent's `pack` writes the folder as a tar stream, which is
 * unpacked here as hostile input (extract-folder-tar.ts); the agent's own refusal (no such
 * folder, a link on the way) is thrown as it gave it.
 */
export function createBoxFolderOut(run: RunInPod, agentPath: string) {
  return async (relativePath: string, destination: string) => {
    const archive = new PassThrough()
    const unpacked = extractFolderTar(archive, destination).then(
      () => undefined,
      (error: Error) => error,
    )
    const errors: Buffer[] = []
    const exitCode = await run({
      command: ['node', agentPath, 'pack', JSON.stringify({ path: relativePath })],
      onStdout: (data) => archive.write(data),
      onStderr: (data) => errors.push(data),
    }).finally(() => archive.end())
    const unpackError = await unpacked
    if (exitCode !== 0) throw agentError(Buffer.concat(errors).toString('utf8'))
    if (unpackError) throw unpackError
  }
}

function agentError(printed: string): Error {
  try {
    const { error } = JSON.parse(printed) as {
      error: { message: string; code?: WorkspacePathErrorCode }
    }
    return error.code ? new WorkspacePathError(error.message, error.code) : new Error(error.message)
  } catch {
    return new Error(`The box's agent could not pack the folder: ${printed.slice(0, 500)}`)
  }
}
