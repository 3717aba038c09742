import type { IncomingMessage } from 'node:http'

/** One cookie's value from the request's `Cookie` header. */
export function readCookie(request: IncomingMessage, name: string): string | undefined {
  for (const part of request.headers.cookie?.split(/;\s*/) ?? []) {
    if (part.startsWith(`${name}=`)) return part.slice(name.length + 1)
  }
  return undefined
}
