import { lookup as dnsLookup } from 'node:dns/promises'
import type { DevboxLogger } from '../logger.ts'
import type { EgressPolicy } from './egress-policy.ts'
import { createHostAddresses, type HostAddresses } from './host-addresses.ts'
import type { InternalRequestHandler } from './sprout-internal.ts'

/** How long reaching an upstream address may take before the box gets an error. */
export const connectTimeoutMs = 15_000

export type EgressProxyOptions = {
  policy: EgressPolicy
  /** The npm registry the server itself uses; the one host `registry` allows. */
  registryUrl: string
  logger: DevboxLogger
  /** Name resolution; defaults to the system resolver. */
  lookup?: (hostname: string) => Promise<string[]>
  /** Answers `http://sprout.internal`; without it the name is refused like any other. */
  internal?: InternalRequestHandler
  /** This machine's own addresses; defaults to its interfaces, re-read as they change. */
  hostAddresses?: HostAddresses
}

/** What the proxy's verbs share across every box it serves (egress-proxy.ts builds it). */
export type EgressProxyState = {
  policy: EgressPolicy
  logger: DevboxLogger
  internal: InternalRequestHandler | undefined
  hostAddresses: HostAddresses
  registryHost: string
  registryPorts: number[]
  lookup: (hostname: string) => Promise<string[]>
}

export function createEgressProxyState(options: EgressProxyOptions): EgressProxyState {
  const registry = new URL(options.registryUrl)
  return {
    policy: options.policy,
    logger: options.logger,
    internal: options.internal,
    hostAddresses: options.hostAddresses ?? createHostAddresses(),
    registryHost: registry.hostname.toLowerCase(),
    registryPorts: [443, 80, Number(registry.port)].filter((port) => port > 0),
    lookup:
      options.lookup ??
      (async (hostname: string) =>
        (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address)),
  }
}
