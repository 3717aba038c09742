import { Agent, type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http'
import { text } from 'node:stream/consumers'
import { setTimeout as delay } from 'node:timers/promises'
import { targetConnection } from '../../dev-server-request.ts'
import type { DevServerTarget, WorkspacePathErrorCode } from '../../devbox-driver.ts'
import { WorkspacePathError } from '../../devbox-driver.ts'
import { writeFolderTar } from '../../folder-archive/write-folder-tar.ts'
import {
  createFrameReader,
  type FilesRequest,
  type RunEnd,
  type RunRequest,
  runChannel,
} from './agent/agent-protocol.ts'

/** A command in the box: argv, what goes on stdin, where its output goes; resolves its exit code. */
export type BoxRunInput = {
  command: string[]
  stdin?: Buffer
  /** Added to the pod's environment for this command only. */
  env?: Record<string, string>
  /** Ends the command: the agent kills its group once its caller is gone. */
  signal?: AbortSignal
  onStdout: (data: Buffer) => void
  onStderr?: (data: Buffer) => void
}

/** Thrown when the agent could not run a command at all (no such program, no agent). */
export class BoxRunError extends Error {
  override name = 'BoxRunError'
}

type AgentErrorBody = { error?: { message: string; code?: WorkspacePathErrorCode } }

/** An agent just started (a new pod) refuses connections for a moment: this long, at most. */
const agentStartMs = 30_000
const refusedCodes = new Set(['ECONNREFUSED', 'EHOSTUNREACH'])

type AgentAddress = () => Promise<DevServerTarget>

/**
 * Requests to one box's agent over kept-alive connections, wherever `address` finds it once the
 * pod runs: a new pod's agent is asked `/health` first (through a port-forward a port nobody
 * listens on yet is a hang-up, not a refusal), a refused connection is tried again for a while.
 */
function createAgentConnection(address: AgentAddress, token: string, unreachable?: () => void) {
  // Idle connections close before the agent's own keep-alive timeout (60 s) would.
  const connections = new Agent({ keepAlive: true, maxSockets: 32, timeout: 30_000 })
  let answering: string | undefined
  /** Where the agent answers: a known address at once, a new one once its health check passes. */
  const answeringTarget = async () => {
    const deadline = Date.now() + agentStartMs
    for (;;) {
      const target = await address()
      const key = JSON.stringify(target)
      if (answering === key) return target
      if (await answersHealth(target)) {
        answering = key
        return target
      }
      unreachable?.()
      if (Date.now() > deadline) {
        throw new BoxRunError(
          `The box's agent did not answer at ${key} within ${agentStartMs / 1000} s`,
        )
      }
      await delay(100)
    }
  }
  const sendOnce = (
    target: DevServerTarget,
    method: string,
    path: string,
    payload: Buffer | ((request: ClientRequest) => Promise<void>) | undefined,
  ) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const request = httpRequest(
        {
          ...targetConnection(target),
          method,
          path,
          agent: connections,
          headers: {
            authorization: `Bearer ${token}`,
            ...(Buffer.isBuffer(payload)
              ? { 'content-type': 'application/json', 'content-length': payload.length }
              : payload
                ? { 'content-type': 'application/x-tar' }
                : {}),
          },
        },
        resolve,
      )
      request.on('error', (error: NodeJS.ErrnoException & { reused?: boolean }) => {
        error.reused = request.reusedSocket
        reject(error)
      })
      if (typeof payload === 'function') {
        payload(request).then(
          () => request.end(),
          (error: Error) => request.destroy(error),
        )
      } else request.end(payload)
    })

  return {
    send: async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body))
      const deadline = Date.now() + agentStartMs
      for (;;) {
        const target = await answeringTarget()
        try {
          return await sendOnce(target, method, path, payload)
        } catch (error) {
          const { code = '', reused } = error as NodeJS.ErrnoException & { reused?: boolean }
          // A kept-alive connection the agent closed meanwhile: sent again, unless it ran a command.
          const resentSafely = code === 'ECONNRESET' && reused && path !== '/run'
          if (refusedCodes.has(code)) {
            answering = undefined
            unreachable?.()
          }
          if ((!refusedCodes.has(code) && !resentSafely) || Date.now() > deadline) {
            throw new BoxRunError(
              `The box's agent could not be reached: ${(error as Error).message}`,
            )
          }
          await delay(100)
        }
      }
    },
    /** A body written by `write` (a tar stream), sent once the agent answers; never again. */
    sendStream: async (path: string, write: (request: ClientRequest) => Promise<void>) => {
      return sendOnce(await answeringTarget(), 'POST', path, write)
    },
    close: () => connections.destroy(),
  }
}

/** Sprout's side of one box's in-box agent (agent/, decision 040). */
export function createAgentClient(input: {
  address: AgentAddress
  token: string
  /** Told when the address stopped answering, so the next `address()` looks again. */
  unreachable?: () => void
}) {
  const { send, sendStream, close } = createAgentConnection(
    input.address,
    input.token,
    input.unreachable,
  )

  const files = async (operation: string, argument: FilesRequest): Promise<unknown> => {
    const response = await send('POST', `/files/${operation}`, argument)
    const printed = await text(response)
    let answer: AgentErrorBody & { value?: unknown }
    try {
      answer = JSON.parse(printed)
    } catch {
      throw new Error(
        `The box's agent answered ${operation} with no answer: ${printed.slice(0, 500)}`,
      )
    }
    if (answer.error) throw agentError(answer.error)
    return answer.value
  }

  return {
    files,

    run: async (run: BoxRunInput): Promise<number> => {
      const body: RunRequest = {
        command: run.command,
        stdin: run.stdin?.toString('base64'),
        env: run.env,
      }
      const response = await send('POST', '/run', body)
      if (response.statusCode !== 200) {
        throw new BoxRunError(`The box's agent refused the command: ${await text(response)}`)
      }
      const stop = () => response.destroy()
      if (run.signal?.aborted) stop()
      run.signal?.addEventListener('abort', stop, { once: true })
      let end: RunEnd | undefined
      const read = createFrameReader((channel, payload) => {
        if (channel === runChannel.stdout) run.onStdout(payload)
        else if (channel === runChannel.stderr) run.onStderr?.(payload)
        else if (channel === runChannel.end) end = JSON.parse(payload.toString('utf8')) as RunEnd
      })
      try {
        for await (const chunk of response) read(chunk as Buffer)
      } catch (error) {
        if (!run.signal?.aborted) throw error
      } finally {
        run.signal?.removeEventListener('abort', stop)
      }
      // Stopped by its caller: as a command killed with SIGKILL ends.
      if (!end && run.signal?.aborted) return 137
      if (!end) throw new BoxRunError("The box's agent ended the command's stream early")
      if (end.error) throw new BoxRunError(end.error)
      return end.exitCode ?? 128
    },

    /** `folder` of this machine written into the pod's working directory (a deploy). */
    unpack: async (folder: string) => {
      const response = await sendStream('/unpack', (request) => writeFolderTar(folder, request))
      const printed = await text(response)
      if (response.statusCode !== 200) {
        const body = parseAnswer(printed)
        throw agentError(body.error ?? { message: `The box's agent could not unpack: ${printed}` })
      }
    },

    /** The folder as a tar stream; the agent's refusal (no folder, a link) thrown as it gave it. */
    pack: async (relativePath: string): Promise<IncomingMessage> => {
      const response = await send('GET', `/pack?path=${encodeURIComponent(relativePath)}`)
      if (response.statusCode === 200) return response
      const printed = await text(response)
      throw agentError(
        parseAnswer(printed).error ?? {
          message: `The box's agent could not pack the folder: ${printed.slice(0, 500)}`,
        },
      )
    },

    close,
  }
}

/** One `/health` on a connection of its own: true once the agent answers it. */
function answersHealth(target: DevServerTarget): Promise<boolean> {
  return new Promise((resolve) => {
    const where = targetConnection(target)
    const request = httpRequest({ ...where, path: '/health', agent: false }, (response) => {
      response.resume()
      resolve(response.statusCode === 200)
    })
    request.setTimeout(5000, () => request.destroy())
    request.on('error', () => resolve(false))
    request.end()
  })
}

function parseAnswer(printed: string): AgentErrorBody {
  try {
    return JSON.parse(printed) as AgentErrorBody
  } catch {
    return {}
  }
}

function agentError(error: { message: string; code?: WorkspacePathErrorCode }): Error {
  return error.code ? new WorkspacePathError(error.message, error.code) : new Error(error.message)
}
