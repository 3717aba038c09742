// The egress proxy of boxes that are pods, as a Deployment of its own
// (deploy/kubernetes/egress-proxy.yaml, docs/decisions/039-egress-proxy-for-pods.md).
import type { DevboxLogger } from '../logger.ts'
import { createEgressProxy } from './egress-proxy.ts'
import { parseEgressProxySettings } from './egress-proxy-settings.ts'

const line = (level: string) => (message: string, details?: Record<string, unknown>) =>
  console.log(JSON.stringify({ level, message, ...details }))
const logger: DevboxLogger = { info: line('info'), warn: line('warn'), error: line('error') }

let settings: ReturnType<typeof parseEgressProxySettings>
try {
  settings = parseEgressProxySettings(process.env)
} catch (error) {
  console.error((error as Error).message)
  process.exit(1)
}

const proxy = createEgressProxy({
  policy: settings.policy,
  registryUrl: settings.registryUrl,
  logger,
})
const served = await proxy.listenForPods({ port: settings.port, sproutUrl: settings.sproutUrl })
logger.info('Egress proxy listening', {
  port: served.port,
  policy: settings.policy,
  sproutInternal: settings.sproutUrl ?? 'refused (no SPROUT_URL)',
})

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void served.close().then(() => process.exit(0))
  })
}
