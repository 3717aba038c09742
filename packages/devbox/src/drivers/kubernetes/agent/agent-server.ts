import { timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { WorkspacePathError } from '../../../devbox-driver.ts'
import { extractFolderTar } from '../../../folder-archive/extract-folder-tar.ts'
import { writeFolderTar } from '../../../folder-archive/write-folder-tar.ts'
import { resolveWorkspaceFolder } from '../../local/workspace/copy-workspace-folder.ts'
import { createWorkspaceFiles } from '../../local/workspace/workspace-files.ts'
import type { FilesRequest } from './agent-protocol.ts'
import { readBody, runCommand } from './agent-run.ts'

/** A file the agent writes comes in one request body; the local driver has no smaller bound. */
const bodyLimitBytes = 256 * 1024 * 1024

const errorOf = (error: unknown) => ({
  error: {
    message: error instanceof Error ? error.message : String(error),
    code: error instanceof WorkspacePathError ? error.code : undefined,
  },
})

function answer(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}

/**
 * The in-box agent (decision 040): the pod's main process, serving commands, the workspace's
 * files with the local driver's own path rules (no `..`, no absolute path, no link followed), a
 * folder as a tar stream and a tar stream unpacked, to whoever holds the box's token.
 */
export function createAgentServer(
  root: string,
  token: string,
  options: { runEnded?: () => void } = {},
) {
  const files = createWorkspaceFiles(root)
  const expected = Buffer.from(`Bearer ${token}`)
  const authorized = (request: IncomingMessage) => {
    const given = Buffer.from(request.headers.authorization ?? '')
    return given.length === expected.length && timingSafeEqual(given, expected)
  }

  const perform = (operation: string, argument: FilesRequest): Promise<unknown> => {
    const relativePath = argument.path ?? '.'
    switch (operation) {
      case 'read':
        return files.read(relativePath)
      case 'write':
        return files.write(relativePath, argument.content ?? '')
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

  const route = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://agent')
    if (url.pathname === '/health') return answer(response, 200, { ok: true })
    if (!authorized(request)) return answer(response, 401, { error: { message: 'Unauthorized' } })
    if (request.method === 'GET' && url.pathname === '/pack') {
      let folder: string
      try {
        folder = await resolveWorkspaceFolder(root, url.searchParams.get('path') ?? '.')
      } catch (error) {
        return answer(response, 400, errorOf(error))
      }
      response.writeHead(200, { 'content-type': 'application/x-tar' })
      // A failure past the headers cuts the stream: the caller sees an unfinished archive.
      return writeFolderTar(folder, response).then(
        () => response.end(),
        () => response.destroy(),
      )
    }
    if (request.method !== 'POST') return answer(response, 404, { error: { message: 'Not found' } })
    if (url.pathname === '/unpack') {
      // A production server's deploy into its pod's empty folder, as hostile as any archive.
      return extractFolderTar(request, root).then(
        () => answer(response, 200, { value: null }),
        (error: unknown) => answer(response, 400, errorOf(error)),
      )
    }
    const received = await readBody(request, bodyLimitBytes)
    if (!received) {
      // The rest of the body is not read: the connection goes once this answer is out.
      response.setHeader('connection', 'close')
      return answer(response, 413, { error: { message: `Larger than ${bodyLimitBytes} bytes` } })
    }
    let body: unknown
    try {
      body = JSON.parse(received.toString('utf8'))
    } catch (error) {
      return answer(response, 400, errorOf(error))
    }
    if (url.pathname === '/run') {
      if (options.runEnded) response.once('close', options.runEnded)
      return runCommand(root, body, response)
    }
    const operation = /^\/files\/([a-z]+)$/.exec(url.pathname)?.[1]
    if (!operation) return answer(response, 404, { error: { message: 'Not found' } })
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return answer(response, 400, { error: { message: 'A files call takes a JSON object' } })
    }
    try {
      const value = await perform(operation, body as FilesRequest)
      answer(response, 200, { value: value ?? null })
    } catch (error) {
      answer(response, 200, errorOf(error))
    }
  }

  return createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      if (!response.headersSent) answer(response, 500, errorOf(error))
      else response.destroy()
    })
  })
}
