import { spawn } from 'node:child_process'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { encodeFrame, isRunRequest, type RunEnd, runChannel } from './agent-protocol.ts'

/**
 * `POST /run`: the command as a process group of its own in the workspace, its stdout and
 * stderr streamed as frames as they come (held back while Sprout reads slower), then its end.
 * A caller that goes away before the end takes the group with it.
 */
export function runCommand(root: string, request: unknown, response: ServerResponse): void {
  if (!isRunRequest(request)) {
    response.writeHead(400, { 'content-type': 'application/json' })
    response.end(
      JSON.stringify({
        error: { message: 'A command is an array of strings, with its stdin and env as text' },
      }),
    )
    return
  }
  const [file = '', ...args] = request.command
  response.writeHead(200, { 'content-type': 'application/octet-stream' })
  response.flushHeaders()
  const env = { ...process.env, ...(request.env ?? {}) }
  const child = spawn(file, args, { cwd: root, env, detached: true, stdio: 'pipe' })
  let ended = false
  const end = (result: RunEnd) => {
    if (ended) return
    ended = true
    response.end(encodeFrame(runChannel.end, Buffer.from(JSON.stringify(result))))
  }
  const forward = (channel: number) => (data: Buffer) => {
    if (!response.write(encodeFrame(channel, data))) {
      child.stdout.pause()
      child.stderr.pause()
      response.once('drain', () => {
        child.stdout.resume()
        child.stderr.resume()
      })
    }
  }
  child.stdout.on('data', forward(runChannel.stdout))
  child.stderr.on('data', forward(runChannel.stderr))
  child.stdin.on('error', () => {})
  child.stdin.end(request.stdin ? Buffer.from(request.stdin, 'base64') : undefined)
  child.on('error', (error: NodeJS.ErrnoException) =>
    end({
      exitCode: null,
      error:
        error.code === 'ENOENT'
          ? `exec: "${file}": executable file not found in $PATH`
          : error.message,
    }),
  )
  child.on('close', (exitCode, signal) => end({ exitCode, signal: signal ?? undefined }))
  response.on('close', () => {
    if (ended || child.pid === undefined) return
    ended = true
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {
      // Gone already.
    }
  })
}

/** A request's body; undefined once it passed `limit` bytes (the rest is not read). */
export async function readBody(
  request: IncomingMessage,
  limit: number,
): Promise<Buffer | undefined> {
  if (Number(request.headers['content-length'] ?? 0) > limit) return undefined
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > limit) return undefined
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}
