import os from 'node:os'
import { describe, expect, it } from 'vitest'
import { ipv6FromIfInet6, localIpv4FromFibTrie, readHostAddresses } from './read-host-addresses.ts'

const fibTrie = `Main:
  +-- 0.0.0.0/0 3 0 5
     |-- 0.0.0.0
        /0 universe UNICAST
     +-- 127.0.0.0/8 2 0 2
        +-- 127.0.0.0/31 1 0 0
           |-- 127.0.0.0
              /8 host LOCAL
           |-- 127.0.0.1
              /32 host LOCAL
        |-- 127.255.255.255
           /32 link BROADCAST
     |-- 11.22.33.44
        /24 link UNICAST
        /32 host LOCAL
Local:
     |-- 11.22.33.45
        /32 host LOCAL
`

const ifInet6 = `00000000000000000000000000000001 01 80 10 80       lo
2a0104f8000000000000000000000005 02 40 00 80     eth1
`

describe('reading the host’s addresses', () => {
  it('takes the kernel’s local IPv4 addresses, not its broadcast or network routes', () => {
    expect(localIpv4FromFibTrie(fibTrie)).toEqual(['127.0.0.1', '11.22.33.44', '11.22.33.45'])
  })

  it('takes every IPv6 address the kernel lists, also of interfaces without a carrier', () => {
    expect(ipv6FromIfInet6(ifInet6)).toEqual([
      '0000:0000:0000:0000:0000:0000:0000:0001',
      '2a01:04f8:0000:0000:0000:0000:0000:0005',
    ])
  })

  it('includes what os.networkInterfaces() lists', () => {
    const listed = Object.values(os.networkInterfaces()).flatMap((entries) =>
      (entries ?? []).map((entry) => entry.address),
    )
    expect(readHostAddresses()).toEqual(expect.arrayContaining(listed))
  })
})
