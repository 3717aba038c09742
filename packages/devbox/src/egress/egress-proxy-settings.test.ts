import { describe, expect, it } from 'vitest'
import { parseEgressProxySettings } from './egress-proxy-settings.ts'

describe("the pods' egress proxy's settings", () => {
  it('defaults to port 3128, the open policy, the public registry and no sprout.internal', () => {
    expect(parseEgressProxySettings({})).toEqual({
      port: 3128,
      policy: 'open',
      registryUrl: 'https://registry.npmjs.org/',
      sproutUrl: undefined,
    })
    expect(
      parseEgressProxySettings({
        PORT: '8080',
        DEVBOX_EGRESS: 'registry',
        SPROUT_URL: 'http://sprout',
      }),
    ).toMatchObject({ port: 8080, policy: 'registry', sproutUrl: 'http://sprout' })
  })

  it('stops with the name of a wrong setting', () => {
    expect(() => parseEgressProxySettings({ PORT: '70000' })).toThrow(/^PORT must be a port/)
    expect(() => parseEgressProxySettings({ PORT: '31.5' })).toThrow(/^PORT/)
    expect(() => parseEgressProxySettings({ DEVBOX_EGRESS: 'all' })).toThrow(/^DEVBOX_EGRESS/)
    expect(() => parseEgressProxySettings({ SPROUT_URL: 'file:///etc' })).toThrow(/^SPROUT_URL/)
    expect(() => parseEgressProxySettings({ SPROUT_URL: 'sprout' })).toThrow(/^SPROUT_URL/)
    expect(() => parseEgressProxySettings({ SPROUT_URL: 'https://sprout' })).toThrow(/^SPROUT_URL/)
  })
})
