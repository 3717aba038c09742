import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { relayKeyFrom } from '../cluster/relay-signature.ts'
import { ConfigError, parseConfig } from './config.ts'

describe('parseConfig', () => {
  it('has working defaults for a bare `npm start`', () => {
    const config = parseConfig({})
    expect(config.port).toBe(3000)
    expect(config.publicUrl).toBe('http://localhost:3000')
    expect(config.previewDomain).toBe('preview.localhost')
    expect(config.appsDomain).toBe('apps.localhost')
    expect(config.databaseUrl).toBeUndefined()
    expect(config.dataDir).toMatch(/\.data$/)
    expect(config.authRateLimit).toEqual({ max: 10, windowSeconds: 60 })
    // Decision 004 (issue 29, item 12): per account, from every client address.
    expect(config.authAccountRateLimit).toEqual({ max: 20, windowSeconds: 900 })
    expect(config.authMailRateLimit).toEqual({ max: 3, windowSeconds: 900 })
    expect(config.errorsRateLimit).toEqual({ max: 3000, windowSeconds: 60 })
    expect(config.maxBodyBytes).toBe(1_048_576)
    // Node then listens on IPv6 and IPv4 alike: http://[::1]:3000 reaches the server too.
    expect(config.host).toBeUndefined()
  })

  it('derives PUBLIC_URL from PORT and trims settings', () => {
    const config = parseConfig({
      PORT: '4000',
      ADMIN_EMAILS: ' A@x.com , ,b@y.org',
      DATABASE_URL: ' ',
    })
    expect(config.publicUrl).toBe('http://localhost:4000')
    expect(config.adminEmails).toEqual(['a@x.com', 'b@y.org'])
    expect(config.databaseUrl).toBeUndefined()
  })

  it('stops idle production servers after APPS_IDLE_MINUTES (15 by default, 0: never)', () => {
    expect(parseConfig({}).appsIdleMinutes).toBe(15)
    expect(parseConfig({ APPS_IDLE_MINUTES: '0.5' }).appsIdleMinutes).toBe(0.5)
    expect(parseConfig({ APPS_IDLE_MINUTES: '0' }).appsIdleMinutes).toBe(0)
    expect(() => parseConfig({ APPS_IDLE_MINUTES: '-1' })).toThrow(/APPS_IDLE_MINUTES/)
  })

  it('gives each deployed app a data folder of APPS_DISK_MB (1024 by default)', () => {
    expect(parseConfig({}).appsDiskMb).toBe(1024)
    expect(parseConfig({ APPS_DISK_MB: '256' }).appsDiskMb).toBe(256)
    expect(() => parseConfig({ APPS_DISK_MB: '1' })).toThrow(/APPS_DISK_MB/)
  })

  it('loads the Picker API from GOOGLE_PICKER_SCRIPT_URL, https only (http for localhost)', () => {
    expect(parseConfig({}).googlePickerScriptUrl).toBe('https://apis.google.com/js/api.js')
    const local = 'http://127.0.0.1:4555/picker.js'
    expect(parseConfig({ GOOGLE_PICKER_SCRIPT_URL: local }).googlePickerScriptUrl).toBe(local)
    expect(() => parseConfig({ GOOGLE_PICKER_SCRIPT_URL: 'http://picker.example/api.js' })).toThrow(
      /GOOGLE_PICKER_SCRIPT_URL: must be an https/,
    )
  })

  it('configures web search only when a backend is given', () => {
    expect(parseConfig({}).webSearch).toEqual({})
    expect(parseConfig({ SEARXNG_URL: 'http://127.0.0.1:8888' }).webSearch).toEqual({
      searxngUrl: 'http://127.0.0.1:8888',
    })
  })

  it('shares boxes and deploys through SHARED_DIR only with DATABASE_URL and VAULT_KEY', () => {
    expect(parseConfig({}).sharedDir).toBeUndefined()
    const vaultKey = Buffer.alloc(32, 7).toString('base64')
    const shared = {
      SHARED_DIR: 'shared',
      DATABASE_URL: 'postgres://db/sprout',
      VAULT_KEY: vaultKey,
    }
    expect(parseConfig(shared).sharedDir).toBe(path.resolve('shared'))
    expect(() => parseConfig({ ...shared, DATABASE_URL: '' })).toThrow(/SHARED_DIR needs/)
    expect(() => parseConfig({ ...shared, VAULT_KEY: '' })).toThrow(/SHARED_DIR needs/)
  })

  it('derives the auth secret from VAULT_KEY for several instances without AUTH_SECRET', () => {
    const vaultKey = Buffer.alloc(32, 7).toString('base64')
    const shared = {
      SHARED_DIR: 'shared',
      DATABASE_URL: 'postgres://db/sprout',
      VAULT_KEY: vaultKey,
    }
    const derived = parseConfig(shared).authSecret
    expect(derived).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // The same on every instance, another for another key, and not the relay's key (decision 035).
    expect(parseConfig({ ...shared, PORT: '4000', DATA_DIR: 'elsewhere' }).authSecret).toBe(derived)
    const otherKey = Buffer.alloc(32, 8).toString('base64')
    expect(parseConfig({ ...shared, VAULT_KEY: otherKey }).authSecret).not.toBe(derived)
    expect(derived).not.toBe(relayKeyFrom(vaultKey).toString('base64url'))
    expect(parseConfig({ ...shared, AUTH_SECRET: 'set-by-hand' }).authSecret).toBe('set-by-hand')
    // One instance keeps its key file in DATA_DIR (start-server.ts), so its sessions stay valid.
    expect(
      parseConfig({ DATABASE_URL: 'postgres://db/sprout', VAULT_KEY: vaultKey }).authSecret,
    ).toBeUndefined()
  })

  it('runs boxes locally by default, as pods with DEVBOX_DRIVER=kubernetes (decisions 037, 039)', () => {
    expect(parseConfig({}).devbox).toMatchObject({
      driver: 'local',
      kubernetes: {
        namespace: 'sprout-boxes',
        boxImage: 'sprout-box:latest',
        runtimeClass: undefined,
        egressProxy: 'sprout-egress-proxy:3128',
        reachPods: 'pod-address',
      },
    })
    const pods = parseConfig({
      DEVBOX_DRIVER: 'kubernetes',
      KUBERNETES_NAMESPACE: 'team-a',
      KUBERNETES_BOX_IMAGE: 'registry.example.com/sprout-box:1',
      KUBERNETES_RUNTIME_CLASS: 'gvisor',
      KUBERNETES_EGRESS_PROXY: 'proxy.team-a.svc:3128',
      KUBERNETES_REACH_PODS: 'port-forward',
    }).devbox
    expect(pods.driver).toBe('kubernetes')
    expect(pods.kubernetes).toEqual({
      namespace: 'team-a',
      boxImage: 'registry.example.com/sprout-box:1',
      runtimeClass: 'gvisor',
      egressProxy: 'proxy.team-a.svc:3128',
      reachPods: 'port-forward',
    })
    for (const [name, value] of [
      ['DEVBOX_DRIVER', 'docker'],
      ['KUBERNETES_NAMESPACE', 'Team_A'],
      ['KUBERNETES_NAMESPACE', '../kube-system'],
      ['KUBERNETES_EGRESS_PROXY', 'sprout-egress-proxy'],
      ['KUBERNETES_EGRESS_PROXY', 'http://proxy:3128'],
      ['KUBERNETES_EGRESS_PROXY', 'proxy:3128\nx'],
      ['KUBERNETES_REACH_PODS', 'tunnel'],
    ] as const) {
      expect(() => parseConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(name))
    }
  })

  it('names the bad setting', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(ConfigError)
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(/PORT/)
    expect(() => parseConfig({ AUTH_RATE_LIMIT: 'lots' })).toThrow(
      /AUTH_RATE_LIMIT: must look like/,
    )
    expect(() => parseConfig({ ERRORS_RATE_LIMIT: '50 a minute' })).toThrow(
      /ERRORS_RATE_LIMIT: must look like/,
    )
    expect(parseConfig({ ERRORS_RATE_LIMIT: '600/10' }).errorsRateLimit).toEqual({
      max: 600,
      windowSeconds: 10,
    })
    expect(() => parseConfig({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/)
    expect(parseConfig({ MAX_BODY_BYTES: '65536' }).maxBodyBytes).toBe(65_536)
    expect(() => parseConfig({ MAX_BODY_BYTES: '1mb' })).toThrow(/MAX_BODY_BYTES/)
    expect(() => parseConfig({ MAX_BODY_BYTES: '10' })).toThrow(/MAX_BODY_BYTES/)
  })
})
