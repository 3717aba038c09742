import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * The one name inside boxes that reaches Sprout itself (its error ingest): plain HTTP on port 80,
 * answered by the server's handler for the calling box, never forwarded anywhere.
 */
export const internalHostname = 'sprout.internal'

/** Answers a box's request to `http://sprout.internal` (`request.url` is the path). */
export type InternalRequestHandler = (
  boxId: string,
  request: IncomingMessage,
  response: ServerResponse,
) => void
