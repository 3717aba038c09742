import type { Readable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import { createOutputCollector } from '../../../command-output.ts'
import type { ExecResult } from '../../../devbox-driver.ts'
import { guarded } from '../../../guarded.ts'
import type { DevboxLogger } from '../../../logger.ts'
import { type ProcessCommand, signalProcessGroup, spawnProcessGroup } from './process-group.ts'

const killGraceMs = 200
/** How long output may keep flowing after the command itself has exited. */
const drainAfterExitMs = 150

export type RunCommandOptions = {
  command: ProcessCommand | string[]
  cwd: string
  env: Record<string, string>
  timeoutSeconds: number
  signal?: AbortSignal
  onOutput?: (chunk: string) => void
  outputLimitBytes?: number
  /** `onOutput` gets the output past the limit too (ExecOptions). */
  streamPastLimit?: boolean
  /** Where a fault in handling the command's output or events is reported; console by default. */
  logger?: DevboxLogger
}

/**
 * Runs a command in its own process group. When it ends — normally, on timeout or on abort —
 * the whole group is killed, so background processes it started never outlive it.
 */
export function runCommand(options: RunCommandOptions): Promise<ExecResult> {
  const startedAt = Date.now()
  if (options.signal?.aborted) {
    return Promise.resolve({
      exitCode: null,
      output: '',
      truncated: false,
      timedOut: false,
      aborted: true,
      durationMs: 0,
    })
  }

  return new Promise((resolve, reject) => {
    const child = spawnProcessGroup(options.command, { cwd: options.cwd, env: options.env })
    const groupId = child.pid
    let timedOut = false
    let aborted = false
    let exitCode: number | null = null
    let settled = false

    const collected = createOutputCollector(options)
    const append = (text: string) => {
      if (!settled) collected.append(text)
    }
    const logger = options.logger ?? console
    for (const stream of [child.stdout, child.stderr]) readInto(stream, append, logger)

    const killTree = () => {
      if (groupId === undefined) return
      signalProcessGroup(groupId, 'SIGTERM')
      setTimeout(() => signalProcessGroup(groupId, 'SIGKILL'), killGraceMs).unref()
    }
    const timer = setTimeout(() => {
      timedOut = true
      killTree()
    }, options.timeoutSeconds * 1000)
    const onAbort = () => {
      aborted = true
      killTree()
    }
    options.signal?.addEventListener('abort', onAbort, { once: true })

    const finish = () => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      if (groupId !== undefined) signalProcessGroup(groupId, 'SIGKILL')
      resolve({
        exitCode,
        ...collected.result(),
        timedOut,
        aborted,
        durationMs: Date.now() - startedAt,
      })
    }
    child.on('error', (error) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      reject(error)
    })
    child.on(
      'exit',
      guarded(logger, 'A box command: its exit', (code: number | null) => {
        exitCode = code
        // Background processes may still hold the output pipes open; give them a moment, then end.
        setTimeout(guarded(logger, 'A box command: its end', finish), drainAfterExitMs).unref()
      }),
    )
    child.on('close', guarded(logger, 'A box command: its end', finish))
  })
}

/** Decodes a stream's UTF-8 into `append`: a fault there is logged, never thrown at the server. */
function readInto(stream: Readable, append: (text: string) => void, logger: DevboxLogger) {
  const decoder = new StringDecoder('utf8')
  const where = 'A box command: its output'
  stream.on(
    'data',
    guarded(logger, where, (data: Buffer) => append(decoder.write(data))),
  )
  stream.on(
    'end',
    guarded(logger, where, () => append(decoder.end())),
  )
}
