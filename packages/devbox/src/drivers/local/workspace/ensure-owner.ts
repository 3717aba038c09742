import { execFile } from 'node:child_process'
import { stat } from 'node:fs/promises'
import { promisify } from 'node:util'

const runFile = promisify(execFile)

/** The folder belongs to the box's uid (a workspace made before confinement is handed over). */
export async function ensureOwner(folderPath: string, owner: { uid: number; gid: number }) {
  const current = await stat(folderPath)
  if (current.uid === owner.uid && current.gid === owner.gid) return
  await runFile('chown', ['-R', '--no-dereference', `${owner.uid}:${owner.gid}`, folderPath])
}
