import type { IncomingMessage } from 'node:http'
import { extractFolderTar } from '../../folder-archive/extract-folder-tar.ts'

/**
 * A pod's `copyFolderOut`: the in-box agent's `/pack` streams the folder as a tar archive, which
 * is unpacked here as hostile input (extract-folder-tar.ts); the agent's own refusal (no such
 * folder, a link on the way) is thrown as it gave it (decision 040).
 */
export function createBoxFolderOut(pack: (relativePath: string) => Promise<IncomingMessage>) {
  return async (relativePath: string, destination: string) => {
    const archive = await pack(relativePath)
    let cut = false
    archive.on('aborted', () => {
      cut = true
    })
    await extractFolderTar(archive, destination)
    if (cut || !archive.complete) {
      throw new Error(`The box's agent stopped sending ${relativePath} before its end`)
    }
  }
}
