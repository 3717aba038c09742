import { lstat, realpath } from 'node:fs/promises'
import path from 'node:path'
import { clientFolder, isFullStackDeploy } from './app-servers/full-stack-deploy.ts'
import { currentDeployId } from './deploy.ts'
import { isInside } from './is-inside.ts'

/**
 * Maps a request path to a file of the current deploy, or undefined (404); extensionless misses
 * fall back to index.html for client-side routes. Traversal, encoded separators, NUL bytes and
 * links never resolve; with a server only `client/` is served.
 */
export async function resolveDeployFile(
  deploysDir: string,
  appId: string,
  urlPath: string,
): Promise<string | undefined> {
  const deployId = await currentDeployId(deploysDir, appId)
  if (!deployId) return undefined
  const deployDirectory = path.join(deploysDir, appId, deployId)
  const base = (await isFullStackDeploy(deployDirectory))
    ? path.join(deployDirectory, clientFolder)
    : deployDirectory
  const segments = toSegments(urlPath)
  if (!segments) return undefined

  const found = await findFile(base, segments)
  if (found) return confined(base, found)
  const last = segments.at(-1) ?? ''
  if (last.includes('.')) return undefined
  const index = await findFile(base, ['index.html'])
  return index ? confined(base, index) : undefined
}

function toSegments(urlPath: string): string[] | undefined {
  const pathname = urlPath.split(/[?#]/)[0] ?? ''
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return undefined
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined
  const segments = decoded.split('/').filter((segment) => segment !== '')
  if (segments.some((segment) => segment === '.' || segment === '..')) return undefined
  return segments
}

/** Walks without following links; a folder resolves to its index.html. */
async function findFile(base: string, segments: string[]): Promise<string | undefined> {
  let current = base
  for (const [index, segment] of segments.entries()) {
    current = path.join(current, segment)
    const stats = await lstat(current).catch(() => undefined)
    if (!stats || stats.isSymbolicLink()) return undefined
    if (stats.isFile()) return index === segments.length - 1 ? current : undefined
    if (!stats.isDirectory()) return undefined
  }
  const indexFile = path.join(current, 'index.html')
  const stats = await lstat(indexFile).catch(() => undefined)
  return stats?.isFile() ? indexFile : undefined
}

async function confined(base: string, filePath: string): Promise<string | undefined> {
  const [baseReal, fileReal] = await Promise.all([realpath(base), realpath(filePath)])
  return isInside(fileReal, baseReal) ? filePath : undefined
}
