import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { exceedsJsonDepth, jsonTooDeepMessage } from '@sprout/protocol/text/json-depth.ts'

/** A refusal of the envelope endpoint: its status and a text that says what is wrong. */
export class EnvelopeError extends Error {
  override name = 'EnvelopeError'
  readonly status: number
  readonly headers: Record<string, string>
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message)
    this.status = status
    this.headers = headers
  }
}

export const envelopeLimits = {
  /** The body as sent (compressed or not). */
  bodyBytes: 10 * 1024 * 1024,
  /** The body once decompressed: a gzip bomb stops here. */
  envelopeBytes: 20 * 1024 * 1024,
  /** One event item (docs/product/error-monitoring.md "Ingest"). */
  eventBytes: 1024 * 1024,
}

export type EnvelopeItem = { header: Record<string, unknown>; payload: Buffer }
export type Envelope = { header: Record<string, unknown>; items: EnvelopeItem[] }

export type EnvelopeBody = Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>

/** Reads the body up to `envelopeLimits.bodyBytes`, whatever it comes as. */
export async function readBody(body: EnvelopeBody | null | undefined): Promise<Buffer> {
  if (!body) return Buffer.alloc(0)
  if (body instanceof Uint8Array) {
    if (body.byteLength > envelopeLimits.bodyBytes) throw tooLarge()
    return Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  }
  const chunks: Buffer[] = []
  let size = 0
  const iterable: AsyncIterable<Uint8Array> =
    Symbol.asyncIterator in body ? body : readableStreamChunks(body)
  for await (const chunk of iterable) {
    size += chunk.byteLength
    if (size > envelopeLimits.bodyBytes) throw tooLarge()
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
  }
  return Buffer.concat(chunks)
}

async function* readableStreamChunks(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      yield value
    }
  } finally {
    reader.releaseLock()
  }
}

const tooLarge = () =>
  new EnvelopeError(
    413,
    `The envelope is too large: the limit is ${envelopeLimits.bodyBytes.toLocaleString('en-US')} bytes`,
  )

const gunzip = promisify(zlib.gunzip)
const inflate = promisify(zlib.inflate)
const brotli = promisify(zlib.brotliDecompress)

/** gzip, deflate or br, decompressed at most to `envelopeLimits.envelopeBytes`. */
export async function decodeBody(body: Buffer, contentEncoding: string | undefined) {
  const encoding = (contentEncoding ?? '').trim().toLowerCase()
  if (encoding === '' || encoding === 'identity') return body
  const options = { maxOutputLength: envelopeLimits.envelopeBytes }
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return await gunzip(body, options)
    if (encoding === 'deflate') return await inflate(body, options)
    if (encoding === 'br') return await brotli(body, options)
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new EnvelopeError(
        413,
        `The envelope is too large once decompressed: the limit is ${envelopeLimits.envelopeBytes.toLocaleString('en-US')} bytes`,
      )
    }
    throw new EnvelopeError(400, `The body is not valid ${encoding} (Content-Encoding)`)
  }
  throw new EnvelopeError(
    400,
    `Unsupported Content-Encoding "${encoding}": send gzip, deflate, br or none`,
  )
}

const newline = 0x0a

/**
 * Sentry's envelope format: a JSON header line, then items of a JSON header line and a payload
 * of `length` bytes (or up to the next newline when the header gives none).
 */
export function parseEnvelope(data: Buffer): Envelope {
  let position = 0
  const readLine = () => {
    const end = data.indexOf(newline, position)
    const line = data.subarray(position, end === -1 ? data.length : end)
    position = end === -1 ? data.length : end + 1
    return line
  }
  const header = parseJsonLine(readLine(), 'envelope header')
  const items: EnvelopeItem[] = []
  while (position < data.length) {
    const headerLine = readLine()
    if (headerLine.length === 0 || isBlank(headerLine)) continue
    const itemHeader = parseJsonLine(headerLine, `item ${items.length + 1} header`)
    const length = itemHeader.length
    let payload: Buffer
    if (length === undefined || length === null) {
      payload = readLine()
    } else {
      if (typeof length !== 'number' || !Number.isInteger(length) || length < 0) {
        throw new EnvelopeError(400, `Item ${items.length + 1}: "length" must be a whole number`)
      }
      if (position + length > data.length) {
        throw new EnvelopeError(
          400,
          `Item ${items.length + 1}: its length ${length} goes past the end of the envelope (${data.length - position} bytes left)`,
        )
      }
      payload = data.subarray(position, position + length)
      position += length
      if (position < data.length && data[position] !== newline) {
        throw new EnvelopeError(
          400,
          `Item ${items.length + 1}: its payload is longer than its length ${length}`,
        )
      }
      position += 1
    }
    items.push({ header: itemHeader, payload })
  }
  return { header, items }
}

function isBlank(line: Buffer) {
  return line.every((byte) => byte === 0x20 || byte === 0x0d || byte === 0x09)
}

function parseJsonLine(line: Buffer, what: string): Record<string, unknown> {
  if (exceedsJsonDepth(line.toString('utf8')))
    throw new EnvelopeError(400, jsonTooDeepMessage(`The ${what}`))
  let value: unknown
  try {
    value = JSON.parse(line.toString('utf8'))
  } catch {
    throw new EnvelopeError(400, `The ${what} is not valid JSON`)
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new EnvelopeError(400, `The ${what} must be a JSON object`)
  }
  return value as Record<string, unknown>
}

/** An event item's payload as a JSON object, within the size limit. */
export function parseEventPayload(item: EnvelopeItem, index: number): Record<string, unknown> {
  if (item.payload.length > envelopeLimits.eventBytes) {
    throw new EnvelopeError(
      413,
      `Item ${index + 1}: the event is ${item.payload.length.toLocaleString('en-US')} bytes; the limit is ${envelopeLimits.eventBytes.toLocaleString('en-US')}`,
    )
  }
  return parseJsonLine(item.payload, `event in item ${index + 1}`)
}
