import { spawn } from 'node:child_process'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'
import type { PodHost } from './api-server-pod-host.ts'
import { execStatus } from './api-server-status.ts'
import { channelSocketServer, refuseUpgrade } from './api-server-streams.ts'

/** The stream protocols kubelet speaks for exec, newest first; v5 adds the close frame (255). */
const protocols = ['v5.channel.k8s.io', 'v4.channel.k8s.io']
const stdinChannel = 0
const stdoutChannel = 1
const stderrChannel = 2
const statusChannel = 3
const closeChannel = 255

/**
 * Exec over WebSocket as kubelet streams it: binary frames whose first byte is the channel
 * (0 stdin, 1 stdout, 2 stderr, 3 the status JSON; in v5, 255 closes a channel), the command
 * run without a shell in the container's working directory and environment. Closing the socket
 * does not kill the command, as with a real kubelet: the driver kills what it started.
 */
export function createExecEndpoint(
  hostOf: (namespace: string, name: string) => PodHost | undefined,
) {
  const streams = channelSocketServer(protocols)

  return {
    /** Answers an upgrade of `/api/v1/namespaces/{ns}/pods/{name}/exec`. */
    upgrade(
      request: IncomingMessage,
      socket: Duplex,
      head: Buffer,
      namespace: string,
      name: string,
    ) {
      const url = new URL(request.url ?? '/', 'http://localhost')
      const command = url.searchParams.getAll('command')
      const host = hostOf(namespace, name)
      if (!host) return refuseUpgrade(socket, '404 Not Found')
      if (command.length === 0 || !streams.offered(request)) {
        return refuseUpgrade(socket, '400 Bad Request')
      }
      streams.sockets.handleUpgrade(request, socket, head, (webSocket) =>
        run(webSocket, host, command, url.searchParams.get('stdin') === 'true'),
      )
    },
    close: streams.close,
  }
}

function run(webSocket: WebSocket, host: PodHost, command: string[], withStdin: boolean) {
  const [file = '', ...args] = command
  const child = spawn(file, args, {
    cwd: host.cwd,
    env: host.env,
    detached: true,
    stdio: [withStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  })
  const send = (channel: number, data: Buffer | string) => {
    if (webSocket.readyState !== webSocket.OPEN) return
    webSocket.send(Buffer.concat([Buffer.from([channel]), Buffer.from(data)]))
  }
  child.stdout?.on('data', (data: Buffer) => send(stdoutChannel, data))
  child.stderr?.on('data', (data: Buffer) => send(stderrChannel, data))
  child.stdin?.on('error', () => {})
  webSocket.on('message', (data: Buffer, isBinary: boolean) => {
    const frame = isBinary ? data : Buffer.from(data)
    if (frame[0] === stdinChannel) child.stdin?.write(frame.subarray(1))
    else if (frame[0] === closeChannel && frame[1] === stdinChannel) child.stdin?.end()
  })
  webSocket.on('close', () => child.stdin?.end())
  let ended = false
  const finish = (exitCode: number) => {
    if (ended) return
    ended = true
    send(statusChannel, JSON.stringify(execStatus(command, exitCode)))
    webSocket.close(1000)
  }
  child.on('error', (error: NodeJS.ErrnoException) => {
    if (ended) return
    ended = true
    const message =
      error.code === 'ENOENT'
        ? `exec: "${file}": executable file not found in $PATH`
        : error.message
    send(
      statusChannel,
      JSON.stringify({ metadata: {}, status: 'Failure', message, reason: 'InternalError' }),
    )
    webSocket.close(1000)
  })
  // 'close' waits for the output pipes, so the status frame comes after the last output.
  child.on('close', (code, signal) => {
    if (code === null && signal === null) return
    finish(code ?? 128 + signalNumber(signal))
  })
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal === 'SIGKILL' ? 9 : signal === 'SIGTERM' ? 15 : signal === 'SIGINT' ? 2 : 1
}
