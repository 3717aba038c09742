import { randomUUID } from 'node:crypto'
import { constants } from 'node:fs'
import { rename, unlink } from 'node:fs/promises'
import { WorkspacePathError } from '../../../devbox-driver.ts'
import type { Owner, WorkspaceScope } from './workspace-descriptors.ts'
import {
  childPath,
  errorCode,
  openChildEntry,
  openFolderChain,
  openInside,
} from './workspace-descriptors.ts'

const createFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW

/**
 * Writes the file `components` name, making missing folders, through folder descriptors
 * (workspace-descriptors.ts). The content goes to a new temporary file in the opened folder,
 * renamed over the target there, so a file is never half-written and no link is followed.
 */
export async function writeWorkspaceFile(input: {
  scope: WorkspaceScope
  components: string[]
  content: string
  owner: Owner | undefined
}) {
  const { scope, components, owner } = input
  const name = components.at(-1)
  if (name === undefined) throw folderError(scope.shown)
  const parent = await openFolderChain(scope, components.slice(0, -1), { owner })
  if (!parent) throw new WorkspacePathError(`${scope.shown} could not be made`, 'not-found')
  try {
    const existing = await openChildEntry(parent, name, scope, JSON.stringify(components.join('/')))
    await existing?.handle.close()
    if (existing?.kind === 'directory') throw folderError(scope.shown)
    if (existing?.kind === 'other') {
      throw new WorkspacePathError(`${scope.shown} is not a regular file`, 'not-a-file')
    }
    const mode = existing ? existing.stats.mode & 0o777 : 0o644
    const temporaryPath = childPath(parent, `.sprout-write-${randomUUID()}.tmp`)
    const handle = await openInside(temporaryPath, createFlags, scope, mode)
    try {
      if (owner) await handle.chown(owner.uid, owner.gid)
      if (existing) await handle.chmod(mode)
      await handle.writeFile(input.content, 'utf8')
      await handle.close()
      await rename(temporaryPath, childPath(parent, name))
    } catch (error) {
      await handle.close().catch(() => {})
      await unlink(temporaryPath).catch(() => {})
      if (errorCode(error) === 'EISDIR') throw folderError(scope.shown)
      throw error
    }
  } finally {
    await parent.handle.close()
  }
}

function folderError(shown: string) {
  return new WorkspacePathError(
    `${shown} is a folder; give a file path like src/App.tsx`,
    'not-a-file',
  )
}
