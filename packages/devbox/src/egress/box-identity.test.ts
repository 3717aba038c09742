import { describe, expect, it } from 'vitest'
import {
  boxIdentityKeyFrom,
  boxIdentityToken,
  proxyCredentialOf,
  verifyBoxIdentity,
} from './box-identity.ts'

const key = boxIdentityKeyFrom('an-auth-secret-of-the-instances-0123456789')

describe('box identity (decision 039)', () => {
  it("proves a box's own id, and no other", () => {
    const token = boxIdentityToken(key, 'box-a')
    expect(verifyBoxIdentity(key, `box-a:${token}`)).toBe('box-a')
    expect(verifyBoxIdentity(key, `box-b:${token}`)).toBeUndefined()
    expect(
      verifyBoxIdentity(boxIdentityKeyFrom('another-secret'), `box-a:${token}`),
    ).toBeUndefined()
  })

  it('refuses what is not an id and its token', () => {
    const token = boxIdentityToken(key, 'box-a')
    for (const header of [
      undefined,
      '',
      token,
      `:${token}`,
      'box-a:',
      `box-a:${token}x`,
      `box-a:${token.slice(0, -1)}\ud800`,
      `box-a\0:${token}`,
    ]) {
      expect(verifyBoxIdentity(key, header), String(header)).toBeUndefined()
    }
  })

  it('reads the credentials of a proxy URL from Proxy-Authorization', () => {
    const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`
    expect(proxyCredentialOf(basic('box-a:token'))).toBe('box-a:token')
    expect(proxyCredentialOf(`basic   ${Buffer.from('box-a:token').toString('base64')}`)).toBe(
      'box-a:token',
    )
    for (const header of [undefined, 'Bearer x', basic('no-colon'), basic('box-a:'), basic(':t')]) {
      expect(proxyCredentialOf(header), String(header)).toBeUndefined()
    }
    expect(proxyCredentialOf(basic('box-a\r\nx-evil: 1:token'))).toBeUndefined()
  })
})
