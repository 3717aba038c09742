import { decideEgress } from './decide-egress.ts'
import type { EgressDecision, EgressPolicy } from './egress-policy.ts'
import { createEgressProxyState, type EgressProxyOptions } from './egress-proxy-state.ts'
import { listenForBox } from './listen-for-box.ts'
import { listenForPods, type PodsProxyOptions } from './listen-for-pods.ts'
import type { InternalRequestHandler } from './sprout-internal.ts'

export { internalHostname } from './sprout-internal.ts'
export type { EgressDecision, EgressPolicy, InternalRequestHandler }

export type EgressProxy = {
  policy: EgressPolicy
  /** Serves the proxy on a unix socket (one per box); resolves to a function that closes it. */
  listen: (socketPath: string, boxId: string) => Promise<() => Promise<void>>
  /** Serves every pod's box on one TCP port (decision 039). */
  listenForPods: (options: PodsProxyOptions) => ReturnType<typeof listenForPods>
  decide: (hostname: string, port: number) => Promise<EgressDecision>
}

/**
 * The only way out of a dev box (docs/architecture/devbox.md, "Network"): HTTP CONNECT and plain
 * HTTP forwarding. It resolves each name itself and connects to the checked address, never the
 * name again, so DNS rebinding cannot turn an allowed name into a local address.
 */
export function createEgressProxy(options: EgressProxyOptions): EgressProxy {
  const proxy = createEgressProxyState(options)
  return {
    policy: options.policy,
    listen: (socketPath, boxId) => listenForBox(proxy, socketPath, boxId),
    listenForPods: (podOptions) => listenForPods(proxy, podOptions),
    decide: (hostname, port) => decideEgress(proxy, hostname, port),
  }
}
