import type { Config } from '../config/config.ts'

export type Origins = {
  product: string
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
  const origins: Origins = {
    product: url.origin,
    preview: (slug) => `${url.protocol}//${slug}.${config.previewDomain}${portSuffix}`,
    apps: (slug) => `${url.protocol}//${slug}.${config.appsDomain}${portSuffix}`,
    previewSource: `${url.protocol}//*.${config.previewDomain}${portSuffix}`,
    hostKind: (host) => {
      if (!host) return 'product'
      const name = hostname(host)
      if (name.endsWith(`.${config.previewDomain}`)) return 'preview'
      if (name.endsWith(`.${config.appsDomain}`)) return 'apps'
      return 'product'
    },
    slugOf: (host) =>
      subdomainOf(host, config.previewDomain) ?? subdomainOf(host, config.appsDomain),
  }
  return origins
}
