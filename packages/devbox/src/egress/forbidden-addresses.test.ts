import { describe, expect, it } from 'vitest'
import { isForbiddenAddress, isNeverReachableAddress } from './forbidden-addresses.ts'

// Issue 17, item 3: every spelling of a local, private, documentation or reserved address.
const refusedIpv4 = [
  '0.0.0.0',
  '0.1.2.3',
  '10.0.0.1',
  '10.255.255.255',
  '100.64.0.1',
  '100.127.255.254',
  '127.0.0.1',
  '127.255.0.9',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.0.0.8',
  '192.0.0.170',
  '192.0.2.1',
  '192.88.99.1',
  '192.168.0.1',
  '198.18.0.1',
  '198.19.255.255',
  '198.51.100.7',
  '203.0.113.5',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
]

const refusedIpv6 = [
  '::',
  '::1',
  '0:0:0:0:0:0:0:1',
  '0000:0000:0000:0000:0000:0000:0000:0001',
  'fc00::1',
  'fd12:3456::1',
  'fe80::1',
  'FE80::1',
  'febf:ffff::1',
  'fec0::1',
  'ff02::1',
  'ff05::1:3',
  '100::1',
  '100:0:0:0:ffff::1',
  '2001:db8::1',
  '2001:0db8:85a3::8a2e:370:7334',
  '3fff::1',
  '3fff:fff::1',
  '2001:2::1',
  '2001:10::1',
  '2001:20::1',
  '2001:1::1',
  '2001:1ff:ffff::1',
  '5f00::1',
]

const refusedEmbeddingIpv4 = [
  '::127.0.0.1',
  '::7f00:1',
  '::8.8.8.8',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::FFFF:7F00:0001',
  '0:0:0:0:0:ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '::ffff:198.51.100.7',
  '::ffff:0:127.0.0.1',
  '::ffff:0:7f00:1',
  '0:0:0:0:ffff:0:a00:1',
  '64:ff9b::127.0.0.1',
  '64:ff9b::7f00:1',
  '64:ff9b:0:0:0:0:7f00:1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b::c0a8:101',
  '64:ff9b::203.0.113.5',
  '64:ff9b:1::8.8.8.8',
  '64:ff9b:1:abcd::1',
  '2002:7f00:1::1',
  '2002:7f00:0001:0:0:0:0:1',
  '2002:a00:1::',
  '2002:c0a8:101::1',
  '2002:a9fe:a9fe:1:2:3:4:5',
  '2001::1',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  '2001:0000:53aa:064c:0:0:0:1',
  'fe80::5efe:127.0.0.1',
  'fe80::200:5efe:10.0.0.1',
  '2606:4700::5efe:127.0.0.1',
  '2606:4700::200:5efe:c0a8:101',
  '2a00:1450:0:0:0:5efe:169.254.169.254',
  '::5efe:8.8.8.8',
]

const refusedAsNotAnAddress = [
  'localhost',
  'not an address',
  '',
  '[::1]',
  'fe80::1%eth0',
  '::1%lo',
  '2606:4700::1111%1',
  '127.1',
  '2130706433',
  '0x7f000001',
  '0177.0.0.1',
  '127.000.000.001',
  '1.2.3.4.5',
  ' 8.8.8.8',
  ':::1',
  '1::2::3',
  ':1::',
  '1:2:3:4:5:6:7:8:9',
  '1:2:3:4:5:6:7::8',
  '::ffff:1.2.3',
  '::ffff:256.0.0.1',
  '1.2.3.4::',
  '12345::1',
  'g::1',
]

const allowed = [
  '8.8.8.8',
  '1.1.1.1',
  '104.16.0.1',
  '172.32.0.1',
  '93.184.215.14',
  '11.22.33.44',
  '198.51.99.1',
  '203.0.114.1',
  '2606:4700::1111',
  '2a00:1450:4001:80b::200e',
  '2001:4860:4860::8888',
  '2001:200::1',
  '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8',
  '2002:808:808::1',
]

describe('forbidden addresses', () => {
  it('covers the issue’s corpus', () => {
    const corpus = [...refusedIpv4, ...refusedIpv6, ...refusedEmbeddingIpv4]
    expect(corpus.length).toBeGreaterThanOrEqual(60)
    expect(corpus).toEqual(expect.arrayContaining(['::127.0.0.1', '64:ff9b:0:0:0:0:7f00:1']))
  })

  it.each(refusedIpv4)('refuses IPv4 %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true)
  })

  it.each(refusedIpv6)('refuses IPv6 %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true)
  })

  it.each(refusedEmbeddingIpv4)('refuses %s, which carries an IPv4 address', (address) => {
    expect(isForbiddenAddress(address)).toBe(true)
  })

  it.each(refusedAsNotAnAddress)('refuses %j, which is no plain IP literal', (address) => {
    expect(isForbiddenAddress(address)).toBe(true)
  })

  it.each(allowed)('allows %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false)
  })
})

describe('addresses not even the server’s own registry may have', () => {
  it.each([
    '127.0.0.1',
    '0.0.0.0',
    '169.254.169.254',
    '224.0.0.1',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '64:ff9b::7f00:1',
    'fe80::1',
    'ff02::1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isNeverReachableAddress(address)).toBe(true)
  })

  it.each(['10.1.2.3', '192.168.1.10', '203.0.113.80', 'fd00::5', '8.8.8.8'])(
    'allows a mirror at %s',
    (address) => {
      expect(isNeverReachableAddress(address)).toBe(false)
    },
  )
})
