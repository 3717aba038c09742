import { text } from 'node:stream/consumers'
import { WorkspacePathError } from '../../../devbox-driver.ts'
import { writeFolderTar } from '../../../folder-archive/write-folder-tar.ts'
import { resolveWorkspaceFolder } from '../../local/workspace/copy-workspace-folder.ts'
import { createWorkspaceFiles } from '../../local/workspace/workspace-files.ts'

/**
 * The in-box agent (decision 037): run in the box's pod with the workspace as its working
 * directory, `node box-agent.ts <read|write|delete|list|search|pack> <JSON argument>` applies
 * the local driver's own path rules (no `..`, no absolute path, no link followed) and prints
 * `{"value":…}` or `{"error":{"message","code"}}`. `write` takes the content on stdin; `pack`
 * prints a folder as a tar stream instead, and its error on stderr.
 */
const [operation = '', argumentText = '{}'] = process.argv.slice(2)
const argument = JSON.parse(argumentText) as {
  path?: string
  recursive?: boolean
  pattern?: string
  fileType?: string
  maxMatches?: number
}
const files = createWorkspaceFiles(process.cwd())
const relativePath = argument.path ?? '.'

async function perform(): Promise<unknown> {
  switch (operation) {
    case 'read':
      return files.read(relativePath)
    case 'write':
      return files.write(relativePath, await text(process.stdin))
    case 'delete':
      return files.delete(relativePath)
    case 'list':
      return files.list(relativePath, { recursive: argument.recursive ?? false })
    case 'search':
      return files.search({
        pattern: argument.pattern ?? '',
        path: argument.path,
        fileType: argument.fileType,
        maxMatches: argument.maxMatches,
      })
    default:
      throw new Error(`Unknown operation ${JSON.stringify(operation)}`)
  }
}

const errorOf = (error: unknown) => ({
  error: {
    message: error instanceof Error ? error.message : String(error),
    code: error instanceof WorkspacePathError ? error.code : undefined,
  },
})

if (operation === 'pack') {
  try {
    await writeFolderTar(await resolveWorkspaceFolder(process.cwd(), relativePath), process.stdout)
  } catch (error) {
    process.stderr.write(JSON.stringify(errorOf(error)))
    process.exitCode = 1
  }
} else {
  try {
    const value = await perform()
    process.stdout.write(JSON.stringify({ value: value ?? null }))
  } catch (error) {
    process.stdout.write(JSON.stringify(errorOf(error)))
    process.exitCode = 1
  }
}
