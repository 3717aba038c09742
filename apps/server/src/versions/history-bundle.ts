import { closeSync, openSync, writeSync } from 'node:fs'

/** Git's bundle signatures (gitformat-bundle): the file's first line. */
const signatures = ['# v2 git bundle\n', '# v3 git bundle\n']
/** After the signature: v3 capabilities, prerequisites (`-<id> …`) and refs (`<id> <name>`). */
const headerLine = /^(?:@[a-z][a-z-]*(?:=[^\n]*)?|-?[0-9a-f]{40}(?:[0-9a-f]{24})?(?: [^\n]*)?)$/
const strictBase64Characters = /^[A-Za-z0-9+/=]*$/
/** The header of a real bundle is a few lines per ref; the box's is read no further than this. */
const maxHeaderBytes = 1024 * 1024

/**
 * Whether `bytes` (a bundle's first bytes, the header's end within them) start a v2/v3 bundle:
 * its signature, capabilities, prerequisites and refs with HEAD among them, then a pack.
 */
function startsHistoryBundle(bytes: Buffer): boolean {
  const signature = signatures.find((candidate) =>
    bytes.subarray(0, candidate.length).equals(Buffer.from(candidate)),
  )
  if (!signature) return false
  const headerEnd = bytes.indexOf('\n\n', signature.length - 1)
  if (headerEnd < 0 || headerEnd > maxHeaderBytes) return false
  const lines = bytes.subarray(signature.length, headerEnd).toString('utf8').split('\n')
  if (lines.length === 0 || !lines.every((line) => headerLine.test(line))) return false
  if (signature.startsWith('# v2') && lines.some((line) => line.startsWith('@'))) return false
  if (!lines.some((line) => /^[0-9a-f]+ HEAD$/.test(line))) return false
  return bytes.subarray(headerEnd + 2, headerEnd + 6).equals(Buffer.from('PACK'))
}

/** Enough of the start to judge it: the longest header read, and the pack's signature. */
const headBytes = maxHeaderBytes + 6
const signatureBytes = Math.max(...signatures.map((signature) => signature.length))

export type BundleFileResult = 'bundle' | 'empty' | 'not-a-bundle' | 'too-large'

/**
 * Writes the box's answer to `git bundle create - HEAD | base64 -w0` to `filePath` as it comes,
 * decoded, never holding it whole (issue 29, item 1): app code controls the box's shell and may
 * print anything, such as `gitdir: /a/host/repo.git`, which git would open as a local repository.
 * Only strict base64 of a v2/v3 bundle header followed by a pack is a bundle (`git bundle verify`
 * checks the rest); past `maxBytes` decoded it is too large, and `onRefused` is called at once
 * (the box's command can be stopped) for that or for a start that is no bundle.
 */
export function createBundleFile(filePath: string, maxBytes: number, onRefused: () => void) {
  const descriptor = openSync(filePath, 'w', 0o600)
  let refused: BundleFileResult | undefined
  let closed = false
  let pending = ''
  let padded = false
  let trailing = false
  let size = 0
  const head: Buffer[] = []
  let headLength = 0
  const refuse = (result: BundleFileResult) => {
    refused = result
    onRefused()
  }
  /** Whether the bytes so far can still begin a bundle's signature. */
  const couldStart = (start: Buffer) =>
    signatures.some((candidate) => {
      const length = Math.min(candidate.length, start.length)
      return start.subarray(0, length).equals(Buffer.from(candidate).subarray(0, length))
    })
  let signatureSeen = false
  const keepHead = (bytes: Buffer) => {
    if (headLength >= headBytes) return true
    head.push(bytes.subarray(0, headBytes - headLength))
    headLength += Math.min(bytes.length, headBytes - headLength)
    if (signatureSeen) return true
    const start = Buffer.concat(head)
    signatureSeen = start.length >= signatureBytes
    return couldStart(start)
  }
  const take = (input: string) => {
    // Whitespace only around the base64, never inside it (what `trim()` allowed).
    const text = size === 0 && pending === '' ? input.replace(/^\s+/, '') : input
    const chunk = text.replace(/\s+$/, '')
    if (trailing ? text.trim() !== '' : /\s/.test(chunk)) return refuse('not-a-bundle')
    if (chunk.length < text.length) trailing = true
    if (!strictBase64Characters.test(chunk) || (padded && chunk !== '')) {
      return refuse('not-a-bundle')
    }
    const joined = pending + chunk
    const whole = joined.length - (joined.length % 4)
    const quartets = joined.slice(0, whole)
    pending = joined.slice(whole)
    const padding = quartets.indexOf('=')
    if (padding >= 0) {
      // Padding ends the base64: in the last quartet only, nothing after it.
      if (padding < whole - 2 || pending !== '' || !/^={1,2}$/.test(quartets.slice(padding))) {
        return refuse('not-a-bundle')
      }
      padded = true
    }
    const bytes = Buffer.from(quartets, 'base64')
    size += bytes.length
    if (size > maxBytes) return refuse('too-large')
    // A start that cannot become a bundle's stops the box's command at once.
    if (!keepHead(bytes)) return refuse('not-a-bundle')
    writeSync(descriptor, bytes)
  }
  return {
    /** A piece of the box's output, as it arrives. */
    push: (text: string) => {
      if (refused === undefined && !closed) take(text)
    },
    /** The box's output has ended (or failed): the file is closed. */
    close: () => {
      if (closed) return
      closed = true
      closeSync(descriptor)
    },
    /** What the box's whole output was. */
    result: (): BundleFileResult => {
      if (refused !== undefined) return refused
      if (size === 0 && pending === '') return 'empty'
      if (pending !== '' || !startsHistoryBundle(Buffer.concat(head))) return 'not-a-bundle'
      return 'bundle'
    },
  }
}

/** `git bundle unbundle`'s output: the id the bundle's HEAD names, if any. */
export function bundleHead(output: string): string | undefined {
  const line = output.split('\n').find((candidate) => /^[0-9a-f]{40,64} HEAD$/.test(candidate))
  return line?.split(' ')[0]
}
