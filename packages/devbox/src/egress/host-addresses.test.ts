import os from 'node:os'
import { describe, expect, it } from 'vitest'
import { createHostAddresses } from './host-addresses.ts'

describe('host addresses', () => {
  it('includes each address of the interfaces in every spelling, and the IPv4 an IPv6 form carries', () => {
    const host = createHostAddresses({
      readAddresses: () => ['11.22.33.44', '2a01:4f8::5'],
    })
    for (const address of [
      '11.22.33.44',
      '::ffff:11.22.33.44',
      '::ffff:b16:212c',
      '::ffff:0:11.22.33.44',
      '64:ff9b::11.22.33.44',
      '2002:b16:212c::1',
      '2606:4700::5efe:11.22.33.44',
      '2a01:4f8:0:0:0:0:0:5',
      '2A01:04F8::0005',
    ]) {
      expect(host.includes(address), address).toBe(true)
    }
    for (const address of ['11.22.33.45', '2a01:4f8::6', '8.8.8.8', '2606:4700::1111']) {
      expect(host.includes(address), address).toBe(false)
    }
  })

  it('re-reads the interfaces once its reading is older than its age limit, not on every check', () => {
    let clock = 0
    let reads = 0
    let current = ['11.22.33.44']
    const host = createHostAddresses({
      readAddresses: () => {
        reads += 1
        return current
      },
      maxAgeMs: 1_000,
      now: () => clock,
    })
    for (let check = 0; check < 100; check += 1) host.includes('8.8.8.8')
    expect(reads).toBe(1)
    current = ['55.66.77.88']
    clock = 999
    expect(host.includes('55.66.77.88')).toBe(false)
    clock = 1_000
    expect(host.includes('55.66.77.88')).toBe(true)
    expect(host.includes('11.22.33.44')).toBe(false)
    expect(reads).toBe(2)
  })

  it('includes every address while the interfaces cannot be read', () => {
    let failing = true
    const host = createHostAddresses({
      readAddresses: () => {
        if (failing) throw new Error('getifaddrs failed')
        return ['11.22.33.44']
      },
      maxAgeMs: 0,
    })
    expect(host.includes('8.8.8.8')).toBe(true)
    failing = false
    expect(host.includes('8.8.8.8')).toBe(false)
  })

  it('includes every address of this machine’s own interfaces by default', () => {
    const host = createHostAddresses()
    const own = Object.values(os.networkInterfaces()).flatMap((entries) =>
      (entries ?? []).map((info) => info.address),
    )
    expect(own.length).toBeGreaterThan(0)
    for (const address of own) expect(host.includes(address), address).toBe(true)
  })
})
