import { realpath } from 'node:fs/promises'
import { Readable } from 'node:stream'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import { walkWorkspace } from '@sprout/devbox/drivers/local/workspace/walk-workspace.ts'
import {
  openFolderChain,
  openWorkspaceEntry,
  type WorkspaceScope,
} from '@sprout/devbox/drivers/local/workspace/workspace-descriptors.ts'
import { ZipFile } from 'yazl'

/** Left out of the zip besides what walks never enter (node_modules, .git, tool caches). */
const leftOutAtRoot = new Set(['.data', 'dist'])

/**
 * docs/product/versions.md "Download": the workspace as a zip, streamed while it is read. App code
 * may put links anywhere, so files are opened one folder descriptor at a time and never through
 * a link (the same confinement as the agent's file tools); links are left out.
 */
export async function workspaceZip(box: Devbox): Promise<ReadableStream<Uint8Array>> {
  const scope: WorkspaceScope = {
    workspaceRealPath: await realpath(box.workspacePath),
    shown: 'the workspace',
  }
  const paths = await listWorkspaceFiles(scope)
  const zip = new ZipFile()
  for (const relativePath of paths) {
    zip.addReadStreamLazy(relativePath, (done) => {
      openForZip(scope, relativePath).then(
        (stream) => done(null, stream),
        (error: Error) => done(error, Readable.from([])),
      )
    })
  }
  zip.end()
  return Readable.toWeb(zip.outputStream as Readable) as ReadableStream<Uint8Array>
}

async function listWorkspaceFiles(scope: WorkspaceScope): Promise<string[]> {
  const root = await openFolderChain(scope, [])
  if (!root) return []
  const paths: string[] = []
  try {
    const walk = walkWorkspace({
      directory: root,
      relativeDirectory: '',
      recursive: true,
      workspaceRealPath: scope.workspaceRealPath,
    })
    for await (const entry of walk) {
      const top = entry.relativePath.split('/')[0] ?? ''
      if (leftOutAtRoot.has(top)) continue
      if (entry.type === 'file') paths.push(entry.relativePath)
    }
  } finally {
    await root.handle.close()
  }
  return paths
}

/** A file swapped for a link or a folder since the listing is zipped empty, never followed. */
async function openForZip(scope: WorkspaceScope, relativePath: string): Promise<Readable> {
  const entry = await openWorkspaceEntry(
    { ...scope, shown: JSON.stringify(relativePath) },
    relativePath.split('/'),
  ).catch(() => ({ kind: 'missing' }) as const)
  if (entry.kind === 'missing') return Readable.from([])
  if (entry.kind !== 'file') {
    await entry.handle.close()
    return Readable.from([])
  }
  return entry.handle.createReadStream({ autoClose: true })
}
