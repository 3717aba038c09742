import type { Config } from '../config/config.ts'

export type Origins = {
  product: string
  /** Origins that are the product too: its loopback aliases when PUBLIC_URL is on localhost. */
  productAliases: string[]
  /** The product origin itself or one of its aliases. */
  isProduct: (origin: string | undefined) => boolean
  /** `http://{slug}.preview.localhost:3000` for an app's preview. */
  preview: (slug: string) => string
  /** `http://{slug}.apps.localhost:3000` for an app's production deploy. */
  apps: (slug: string) => string
  /** CSP source matching every preview origin. */
  previewSource: string
  hostKind: (host: string | undefined) => 'product' | 'preview' | 'apps'
  /** The app slug of a preview or apps host. */
  slugOf: (host: string) => string | undefined
}

export function createOrigins(config: Pick<Config, 'publicUrl' | 'previewDomain' | 'appsDomain'>) {
  const url = new URL(config.publicUrl)
  const portSuffix = url.port ? `:${url.port}` : ''
  const hostname = (host: string) => host.toLowerCase().replace(/:\d+$/, '')
  const subdomainOf = (host: string, domain: string) => {
    const name = hostname(host)
    if (!name.endsWith(`.${domain}`)) return undefined
    const slug = name.slice(0, -(domain.length + 1))
    return /^[a-z0-9][a-z0-9-]*$/.test(slug) ? slug : undefined
  }
  const productAliases = loopbackAliases(url)
  let lastHost: string | undefined
  let lastKind: ReturnType<Origins['hostKind']> = 'product'
  const origins: Origins = {
    product: url.origin,
    productAliases,
    isProduct: (origin) => origin === url.origin || productAliases.includes(origin ?? ''),
    preview: (slug) => `${url.protocol}//${slug}.${config.previewDomain}${portSuffix}`,
    apps: (slug) => `${url.protocol}//${slug}.${config.appsDomain}${portSuffix}`,
    previewSource: `${url.protocol}//*.${config.previewDomain}${portSuffix}`,
    hostKind: (host) => {
      if (!host) return 'product'
      // Every request asks (node-handler.ts, then app.ts): the last answer is kept per host.
      if (host === lastHost) return lastKind
      const name = hostname(host)
      const kind = name.endsWith(`.${config.previewDomain}`)
        ? 'preview'
        : name.endsWith(`.${config.appsDomain}`)
          ? 'apps'
          : 'product'
      lastHost = host
      lastKind = kind
      return kind
    },
    slugOf: (host) =>
      subdomainOf(host, config.previewDomain) ?? subdomainOf(host, config.appsDomain),
  }
  return origins
}

/**
 * `http://localhost:3000` is also reached as `http://127.0.0.1:3000` and `http://[::1]:3000`:
 * the same server on the same machine, so those are trusted like it. Any other name needs
 * PUBLIC_URL.
 */
export function loopbackAliases(publicUrl: URL): string[] {
  if (publicUrl.hostname !== 'localhost') return []
  const port = publicUrl.port ? `:${publicUrl.port}` : ''
  return [`${publicUrl.protocol}//127.0.0.1${port}`, `${publicUrl.protocol}//[::1]${port}`]
}

/** What a browser on an untrusted address is told: where to open Sprout, or what to set. */
export function untrustedOriginMessage(productOrigin: string): string {
  return `This address is not trusted: open Sprout at ${productOrigin}, or set PUBLIC_URL to the address you use.`
}
