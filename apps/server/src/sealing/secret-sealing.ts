import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

/** One stored value: base64 ciphertext (with its tag) and IV (docs/product/vault.md "Storage"). */
export type SealedSecret = { ciphertext: string; iv: string }

const algorithm = 'aes-256-gcm'
const ivBytes = 12
const tagBytes = 16

/**
 * The associated data binds a ciphertext to its application and key: moved to another app or
 * renamed, it no longer authenticates. JSON keeps the pair unambiguous whatever the ids contain.
 */
function associatedData(applicationId: string, key: string): Buffer {
  return Buffer.from(JSON.stringify([applicationId, key]), 'utf8')
}

export function sealSecret(
  masterKey: Buffer,
  applicationId: string,
  key: string,
  value: string,
): SealedSecret {
  const iv = randomBytes(ivBytes)
  const cipher = createCipheriv(algorithm, masterKey, iv, { authTagLength: tagBytes })
  cipher.setAAD(associatedData(applicationId, key))
  const encrypted = Buffer.concat([
    cipher.update(value, 'utf8'),
    cipher.final(),
    cipher.getAuthTag(),
  ])
  return { ciphertext: encrypted.toString('base64'), iv: iv.toString('base64') }
}

/** Throws when the key is wrong or the ciphertext was altered, moved or renamed. */
export function openSecret(
  masterKey: Buffer,
  applicationId: string,
  key: string,
  sealed: SealedSecret,
): string {
  const data = Buffer.from(sealed.ciphertext, 'base64')
  if (data.length < tagBytes) throw new Error('The stored secret is truncated')
  const decipher = createDecipheriv(algorithm, masterKey, Buffer.from(sealed.iv, 'base64'), {
    authTagLength: tagBytes,
  })
  decipher.setAAD(associatedData(applicationId, key))
  decipher.setAuthTag(data.subarray(data.length - tagBytes))
  return Buffer.concat([
    decipher.update(data.subarray(0, data.length - tagBytes)),
    decipher.final(),
  ]).toString('utf8')
}
