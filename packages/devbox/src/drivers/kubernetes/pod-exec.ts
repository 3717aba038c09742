import { Readable, Writable } from 'node:stream'
import { Exec, type KubeConfig, type V1Status } from '@kubernetes/client-node'

export type PodExecInput = {
  namespace: string
  pod: string
  command: string[]
  /** Sent on stdin, then stdin is closed (v5.channel.k8s.io's close frame). */
  stdin?: Buffer
  onStdout: (data: Buffer) => void
  onStderr?: (data: Buffer) => void
}

/** Thrown when the API server refused the exec or the pod could not run the command. */
export class PodExecError extends Error {
  override name = 'PodExecError'
}

const container = 'box'

/**
 * Runs `command` in the box's container through the pod's exec API (the library's Exec, its
 * WebSocket in the channel framing) and resolves with its exit code once the status arrived and
 * the socket closed. The command is not killed when the socket closes: callers that stop a
 * command kill its process group through another exec (box-command.ts).
 */
export async function execInPod(kubeConfig: KubeConfig, input: PodExecInput): Promise<number> {
  let status: V1Status | undefined
  const sink = (deliver: (data: Buffer) => void) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        deliver(chunk)
        done()
      },
    })
  const socket = await new Exec(kubeConfig)
    .exec(
      input.namespace,
      input.pod,
      container,
      input.command,
      sink(input.onStdout),
      sink(input.onStderr ?? (() => {})),
      input.stdin ? Readable.from([input.stdin]) : null,
      false,
      (received) => {
        status = received
      },
    )
    .catch((error: unknown) => {
      throw new PodExecError(`Could not reach box ${input.pod}: ${describe(error)}`)
    })
  await new Promise<void>((resolve) => {
    if (socket.readyState === socket.CLOSED) resolve()
    else socket.on('close', () => resolve())
  })
  return exitCodeOf(status, input.pod)
}

function exitCodeOf(status: V1Status | undefined, pod: string): number {
  if (!status)
    throw new PodExecError(`The connection to box ${pod} closed before its command ended`)
  if (status.status === 'Success') return 0
  const code = status.details?.causes?.find((cause) => cause.reason === 'ExitCode')?.message
  if (status.reason === 'NonZeroExitCode' && code !== undefined) return Number(code)
  throw new PodExecError(`Box ${pod} could not run the command: ${status.message ?? status.reason}`)
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message
  // The WebSocket's error event carries its reason in `message`.
  const message = (error as { message?: unknown } | undefined)?.message
  return typeof message === 'string' ? message : String(error)
}
