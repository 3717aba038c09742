import type { Context } from 'hono'
import { visitorAddressOf } from '../cluster/relayed-client.ts'
import type { AppEnv } from '../http/app-env.ts'

/** Where a request came from, as an audit event says it: the client's address and user agent. */
export function auditRequestOf(context: Context<AppEnv>, trustProxy: boolean) {
  const incoming = context.env?.incoming
  return {
    address: incoming ? visitorAddressOf(incoming, trustProxy) : null,
    userAgent: context.req.header('user-agent') ?? null,
  }
}
