/**
 * TEST FIXTURE: a minimal `Devbox` over a temporary folder, for the agent's own tests. The real
 * implementation lives in packages/devbox/src/drivers/local; this one only has to behave alike
 * for files, confinement and `exec`.
 */

import { spawn } from 'node:child_process'
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  type Devbox,
  type ExecOptions,
  type ExecResult,
  type FileEntry,
  type SearchMatch,
  type SearchOptions,
  WorkspacePathError,
} from '@sprout/devbox/devbox-driver.ts'
import { copyWorkspaceFolder } from '@sprout/devbox/drivers/local/workspace/copy-workspace-folder.ts'

export type TempFolderDevbox = Devbox & {
  remove: () => Promise<void>
  /** What the dev server "printed": read back through `devServer.logs()`. */
  printServerOutput: (text: string) => void
}

export async function createTempFolderDevbox(): Promise<TempFolderDevbox> {
  const parent = await realpath(await mkdtemp(path.join(tmpdir(), 'sprout-agent-test-')))
  const root = path.join(parent, 'workspace')
  await mkdir(root)
  let serverOutput = ''

  async function resolveInside(relativePath: string): Promise<string> {
    if (relativePath.includes('\0')) throw new WorkspacePathError('Path contains a NUL byte.')
    if (path.isAbsolute(relativePath)) {
      throw new WorkspacePathError(`Absolute paths are not allowed: ${relativePath}`)
    }
    const resolved = path.resolve(root, relativePath)
    if (resolved !== root && !resolved.startsWith(root + path.sep)) {
      throw new WorkspacePathError(`Path is outside the workspace: ${relativePath}`)
    }
    let existing = resolved
    while (existing !== root) {
      try {
        const real = await realpath(existing)
        if (real !== root && !real.startsWith(root + path.sep)) {
          throw new WorkspacePathError(`Path is outside the workspace: ${relativePath}`)
        }
        break
      } catch (error) {
        if (error instanceof WorkspacePathError) throw error
        existing = path.dirname(existing)
      }
    }
    return resolved
  }

  async function listFolder(folder: string, recursive: boolean): Promise<FileEntry[]> {
    const entries: FileEntry[] = []
    for (const dirent of await readdir(folder, { withFileTypes: true })) {
      const absolute = path.join(folder, dirent.name)
      const relative = path.relative(root, absolute)
      if (dirent.isDirectory()) {
        entries.push({ path: relative, type: 'directory', size: 0 })
        if (recursive) entries.push(...(await listFolder(absolute, true)))
      } else {
        entries.push({ path: relative, type: 'file', size: (await stat(absolute)).size })
      }
    }
    return entries
  }

  async function search(options: SearchOptions): Promise<SearchMatch[]> {
    const folder = await resolveInside(options.path ?? '.')
    const expression = new RegExp(options.pattern)
    const matches: SearchMatch[] = []
    for (const entry of await listFolder(folder, true)) {
      if (entry.type !== 'file') continue
      if (options.fileType && !entry.path.endsWith(`.${options.fileType}`)) continue
      const lines = (await readFile(path.join(root, entry.path), 'utf8')).split('\n')
      lines.forEach((text, index) => {
        if (expression.test(text)) matches.push({ path: entry.path, line: index + 1, text })
      })
    }
    return matches.slice(0, options.maxMatches ?? 200)
  }

  function exec(command: string, options: ExecOptions): Promise<ExecResult> {
    const started = Date.now()
    const limit = options.outputLimitBytes ?? 1_000_000
    return new Promise((resolve) => {
      const child = spawn('bash', ['-c', command], {
        cwd: root,
        detached: true,
        env: { ...process.env, ...options.env },
      })
      let output = ''
      let truncated = false
      let timedOut = false
      let aborted = false
      const killTree = () => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL')
        } catch {}
      }
      const onData = (data: Buffer) => {
        const text = data.toString('utf8')
        options.onOutput?.(text)
        if (output.length + text.length > limit) {
          output += text.slice(0, Math.max(0, limit - output.length))
          truncated = true
        } else {
          output += text
        }
      }
      child.stdout.on('data', onData)
      child.stderr.on('data', onData)
      const timer = setTimeout(() => {
        timedOut = true
        killTree()
      }, options.timeoutSeconds * 1000)
      const onAbort = () => {
        aborted = true
        killTree()
      }
      options.signal?.addEventListener('abort', onAbort, { once: true })
      child.on('close', (code) => {
        clearTimeout(timer)
        options.signal?.removeEventListener('abort', onAbort)
        resolve({
          exitCode: code,
          output,
          truncated,
          timedOut,
          aborted,
          durationMs: Date.now() - started,
        })
      })
    })
  }

  return {
    id: path.basename(parent),
    packType: 'vite-react',
    workspacePath: root,
    copyFolderOut: (relativePath, destination) =>
      copyWorkspaceFolder(root, relativePath, destination),
    files: {
      read: async (relativePath) => readFile(await resolveInside(relativePath), 'utf8'),
      write: async (relativePath, content) => {
        const target = await resolveInside(relativePath)
        await mkdir(path.dirname(target), { recursive: true })
        await writeFile(target, content)
      },
      delete: async (relativePath) => unlink(await resolveInside(relativePath)),
      list: async (relativePath, options) =>
        listFolder(await resolveInside(relativePath ?? '.'), options?.recursive ?? false),
      search,
    },
    exec,
    devServer: {
      start: async () => {},
      stop: async () => {},
      status: () => 'running',
      target: () => undefined,
      restarts: () => 0,
      logs: () => serverOutput,
    },
    checkpoint: async () => undefined,
    remove: () => rm(parent, { recursive: true, force: true }),
    printServerOutput: (text) => {
      serverOutput += text
    },
  }
}
