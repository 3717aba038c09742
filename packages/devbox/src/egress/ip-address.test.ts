import { describe, expect, it } from 'vitest'
import { embeddedIpv4, parseIpAddress } from './ip-address.ts'

describe('IP literals', () => {
  it('reads every IPv6 spelling as its eight groups', () => {
    const loopback = [0, 0, 0, 0, 0, 0, 0, 1]
    for (const spelling of [
      '::1',
      '0:0:0:0:0:0:0:1',
      '0::0:1',
      '::0.0.0.1',
      '0:0:0:0:0:0:0.0.0.1',
    ]) {
      expect(parseIpAddress(spelling), spelling).toEqual({ family: 6, groups: loopback })
    }
    expect(parseIpAddress('64:ff9b::127.0.0.1')).toEqual(parseIpAddress('64:ff9b:0:0:0:0:7f00:1'))
    expect(parseIpAddress('1:2:3:4:5:6:7::')).toEqual({
      family: 6,
      groups: [1, 2, 3, 4, 5, 6, 7, 0],
    })
    expect(parseIpAddress('198.51.100.7')).toEqual({ family: 4, value: 0xc6336407 })
  })

  it('finds the IPv4 address a mapped, SIIT, NAT64, 6to4 or ISATAP address carries', () => {
    const groupsOf = (text: string) => {
      const parsed = parseIpAddress(text)
      return parsed?.family === 6 ? parsed.groups : []
    }
    const loopback = 0x7f000001
    expect(embeddedIpv4(groupsOf('::ffff:127.0.0.1'))).toEqual({ ipv4: loopback, translated: true })
    expect(embeddedIpv4(groupsOf('::ffff:0:7f00:1'))).toEqual({ ipv4: loopback, translated: true })
    expect(embeddedIpv4(groupsOf('64:ff9b::7f00:1'))).toEqual({ ipv4: loopback, translated: true })
    expect(embeddedIpv4(groupsOf('2002:7f00:1::'))).toEqual({ ipv4: loopback, translated: false })
    expect(embeddedIpv4(groupsOf('fe80::200:5efe:7f00:1'))).toEqual({
      ipv4: loopback,
      translated: false,
    })
    expect(embeddedIpv4(groupsOf('2606:4700::1111'))).toBeUndefined()
  })
})
