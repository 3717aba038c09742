import { StringDecoder } from 'node:string_decoder'
import type { ExecOptions } from './devbox-driver.ts'

export const defaultOutputLimitBytes = 64 * 1024

/**
 * A command's output as ExecOptions describe it, for every driver: kept up to its limit, the rest
 * dropped and `truncated` set, each kept piece given to `onOutput` (and the rest too with
 * `streamPastLimit`).
 */
export function createOutputCollector(
  options: Pick<ExecOptions, 'outputLimitBytes' | 'streamPastLimit' | 'onOutput'>,
) {
  const limit = options.outputLimitBytes ?? defaultOutputLimitBytes
  const decoder = new StringDecoder('utf8')
  let output = ''
  let keptBytes = 0
  let truncated = false
  const append = (text: string) => {
    if (text.length === 0) return
    if (truncated) {
      if (options.streamPastLimit) options.onOutput?.(text)
      return
    }
    const bytes = Buffer.byteLength(text)
    if (keptBytes + bytes <= limit) {
      keptBytes += bytes
      output += text
      options.onOutput?.(text)
      return
    }
    const head = cutToBytes(text, limit - keptBytes)
    keptBytes += Buffer.byteLength(head)
    output += head
    truncated = true
    if (head) options.onOutput?.(head)
    if (options.streamPastLimit) options.onOutput?.(text.slice(head.length))
  }
  return {
    /** Decoded text (a driver that decodes each stream itself). */
    append,
    /** What was kept so far. */
    result: () => ({ output, truncated }),
    /** Raw bytes, decoded here. */
    write: (data: Buffer) => append(decoder.write(data)),
    end: () => {
      append(decoder.end())
      return { output, truncated }
    },
  }
}

function cutToBytes(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return ''
  const encoded = Buffer.from(text).subarray(0, maxBytes)
  // A cut in the middle of a multi-byte character leaves a replacement character; drop it.
  return encoded.toString('utf8').replace(/\uFFFD$/, '')
}
