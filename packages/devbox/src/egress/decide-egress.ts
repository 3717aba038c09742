import net from 'node:net'
import { addressRefusal } from './address-refusal.ts'
import type { EgressDecision } from './egress-policy.ts'
import type { EgressProxyState } from './egress-proxy-state.ts'

/**
 * Whether a box may reach `hostname:port` under the policy, and at which checked address: the
 * name is resolved here once and never again (docs/architecture/devbox.md, "Network").
 */
export async function decideEgress(
  proxy: EgressProxyState,
  rawHostname: string,
  port: number,
): Promise<EgressDecision> {
  const hostname = rawHostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return { allowed: false, reason: `port ${port} is not a valid port` }
  }
  if (proxy.policy === 'none') {
    return { allowed: false, reason: 'outbound access is off for dev boxes (DEVBOX_EGRESS=none)' }
  }
  const isRegistry = hostname === proxy.registryHost && proxy.registryPorts.includes(port)
  if (proxy.policy === 'registry' && !isRegistry) {
    return {
      allowed: false,
      reason: `only the npm registry (${proxy.registryHost}) is reachable from dev boxes (DEVBOX_EGRESS=registry)`,
    }
  }
  let addresses: string[]
  try {
    addresses = net.isIP(hostname) ? [hostname] : await proxy.lookup(hostname)
  } catch {
    return { allowed: false, reason: `the name ${hostname} does not resolve` }
  }
  const [address] = addresses
  const refusal = addressRefusal(hostname, addresses, proxy.hostAddresses, isRegistry)
  if (refusal !== undefined || address === undefined) {
    return { allowed: false, reason: refusal ?? `the name ${hostname} resolves to no address` }
  }
  return { allowed: true, address, port }
}
