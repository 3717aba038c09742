/**
 * The in-box agent's wire (docs/decisions/040-resident-box-agent.md): HTTP/1.1 on the pod's
 * address, every call but `/health` with `Authorization: Bearer {token}`. `/run` answers with
 * frames: one byte of channel, four of length (big-endian), the payload.
 */
export const agentPort = 7070
/** The pod's variables that tell the agent its port and token; it drops both before any command. */
export const agentPortVariable = 'SPROUT_AGENT_PORT'
export const agentTokenVariable = 'SPROUT_AGENT_TOKEN'
/**
 * Set in a production server's pod: the agent exits once its one command (the server) ended, by
 * itself or because Sprout went away, so the pod (restartPolicy Never) ends with it.
 */
export const agentOneRunVariable = 'SPROUT_AGENT_ONE_RUN'

export const runChannel = { stdout: 1, stderr: 2, end: 3 } as const

/**
 * `POST /run`: argv (no shell of its own), what goes on stdin before it is closed, and variables
 * added to the agent's environment (a production server's secrets: not in its argv).
 */
export type RunRequest = { command: string[]; stdin?: string; env?: Record<string, string> }
const isText = (value: unknown): value is string => typeof value === 'string'

/** A body that is a RunRequest: argv of strings, a base64 string, variables of strings. */
export function isRunRequest(body: unknown): body is RunRequest {
  if (typeof body !== 'object' || body === null) return false
  const { command, stdin, env } = body as Record<string, unknown>
  if (!Array.isArray(command) || command.length === 0 || !command.every(isText)) return false
  if (stdin !== undefined && !isText(stdin)) return false
  if (env === undefined) return true
  return typeof env === 'object' && env !== null && Object.values(env).every(isText)
}

/** The last frame: the exit code, or why the command could not run at all. */
export type RunEnd = { exitCode: number | null; signal?: string; error?: string }

/** `POST /files/{operation}`'s body. */
export type FilesRequest = {
  path?: string
  recursive?: boolean
  pattern?: string
  fileType?: string
  maxMatches?: number
  content?: string
}

const headerBytes = 5

export function encodeFrame(channel: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(headerBytes)
  header.writeUInt8(channel, 0)
  header.writeUInt32BE(payload.length, 1)
  return Buffer.concat([header, payload])
}

/** Splits a stream of frames, whatever its chunks, into `onFrame(channel, payload)` calls. */
export function createFrameReader(onFrame: (channel: number, payload: Buffer) => void) {
  let pending: Buffer = Buffer.alloc(0)
  return (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
    while (pending.length >= headerBytes) {
      const length = pending.readUInt32BE(1)
      if (pending.length < headerBytes + length) return
      onFrame(pending.readUInt8(0), pending.subarray(headerBytes, headerBytes + length))
      pending = pending.subarray(headerBytes + length)
    }
  }
}
