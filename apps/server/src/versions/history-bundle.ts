/** Git's bundle signatures (gitformat-bundle): the file's first line. */
const signatures = ['# v2 git bundle\n', '# v3 git bundle\n']
/** After the signature: v3 capabilities, prerequisites (`-<id> …`) and refs (`<id> <name>`). */
const headerLine = /^(?:@[a-z][a-z-]*(?:=[^\n]*)?|-?[0-9a-f]{40}(?:[0-9a-f]{24})?(?: [^\n]*)?)$/
const strictBase64 = /^[A-Za-z0-9+/]*={0,2}$/
/** The header of a real bundle is a few lines per ref; the box's is read no further than this. */
const maxHeaderBytes = 1024 * 1024

/**
 * The box's answer to `git bundle create - HEAD | base64 -w0`, checked before git on the server
 * touches it (issue 29, item 1): app code controls the box's shell and may print anything, such
 * as `gitdir: /a/host/repo.git`, which git would open as a local repository. Only strict base64
 * of a v2/v3 bundle header followed by a pack passes; undefined otherwise. `git bundle verify`
 * checks the rest.
 */
export function decodeHistoryBundle(output: string): Buffer | undefined {
  const text = output.trim()
  if (text === '' || text.length % 4 !== 0 || !strictBase64.test(text)) return undefined
  const bytes = Buffer.from(text, 'base64')
  const signature = signatures.find((candidate) =>
    bytes.subarray(0, candidate.length).equals(Buffer.from(candidate)),
  )
  if (!signature) return undefined
  const headerEnd = bytes.indexOf('\n\n', signature.length - 1)
  if (headerEnd < 0 || headerEnd > maxHeaderBytes) return undefined
  const lines = bytes.subarray(signature.length, headerEnd).toString('utf8').split('\n')
  if (lines.length === 0 || !lines.every((line) => headerLine.test(line))) return undefined
  if (signature.startsWith('# v2') && lines.some((line) => line.startsWith('@'))) return undefined
  if (!lines.some((line) => /^[0-9a-f]+ HEAD$/.test(line))) return undefined
  if (!bytes.subarray(headerEnd + 2, headerEnd + 6).equals(Buffer.from('PACK'))) return undefined
  return bytes
}

/** `git bundle unbundle`'s output: the id the bundle's HEAD names, if any. */
export function bundleHead(output: string): string | undefined {
  const line = output.split('\n').find((candidate) => /^[0-9a-f]{40,64} HEAD$/.test(candidate))
  return line?.split(' ')[0]
}
