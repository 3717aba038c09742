import type { EgressPolicy } from './egress-policy.ts'

export type EgressProxySettings = {
  port: number
  policy: EgressPolicy
  registryUrl: string
  sproutUrl: string | undefined
}

const policies: EgressPolicy[] = ['open', 'registry', 'none']

/**
 * The pods' egress proxy's settings (deploy/kubernetes/egress-proxy.yaml): PORT, DEVBOX_EGRESS
 * and npm_config_registry as Sprout reads them, and SPROUT_URL, Sprout's Service. A wrong one
 * stops the proxy with the setting's name.
 */
export function parseEgressProxySettings(
  environment: Record<string, string | undefined>,
): EgressProxySettings {
  const port = Number(environment.PORT ?? '3128')
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`PORT must be a port number, not "${environment.PORT}"`)
  }
  const policy = (environment.DEVBOX_EGRESS ?? 'open') as EgressPolicy
  if (!policies.includes(policy)) {
    throw new Error(`DEVBOX_EGRESS must be one of ${policies.join(', ')}, not "${policy}"`)
  }
  const url = (name: string, protocols: string[], fallback?: string) => {
    const value = environment[name] || fallback
    if (value === undefined) return undefined
    if (!URL.canParse(value) || !protocols.includes(new URL(value).protocol)) {
      const shown = protocols.map((protocol) => `${protocol}//`).join(' or ')
      throw new Error(`${name} must be an ${shown} URL, not "${value}"`)
    }
    return value
  }
  return {
    port,
    policy,
    registryUrl:
      url('npm_config_registry', ['http:', 'https:'], 'https://registry.npmjs.org/') ?? '',
    // Sprout's Service inside the cluster: plain HTTP, as the base's Service serves it.
    sproutUrl: url('SPROUT_URL', ['http:']),
  }
}
