import { execFileSync } from 'node:child_process'
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WorkspaceFiles } from '../../../devbox-driver.ts'
import { WorkspacePathError } from '../../../devbox-driver.ts'
import { createWorkspaceFiles } from './workspace-files.ts'

let baseDirectory: string
let workspace: string
let outside: string
let files: WorkspaceFiles

beforeAll(async () => {
  baseDirectory = await mkdtemp(path.join(os.tmpdir(), 'sprout-files-'))
  workspace = path.join(baseDirectory, 'workspace')
  outside = path.join(baseDirectory, 'outside')
  await mkdir(path.join(workspace, 'src'), { recursive: true })
  await mkdir(outside)
  await writeFile(path.join(outside, 'secret.txt'), 'top secret\n')
  await writeFile(path.join(workspace, 'src/App.tsx'), 'export function App() {}\n')
  await symlink(path.join(outside, 'secret.txt'), path.join(workspace, 'link-file'))
  await symlink('../outside', path.join(workspace, 'link-dir'))
  await symlink(path.join(outside, 'missing.txt'), path.join(workspace, 'dangling'))
  await symlink('src/App.tsx', path.join(workspace, 'inner-link'))
  files = createWorkspaceFiles(workspace)
})

afterAll(async () => {
  await rm(baseDirectory, { recursive: true, force: true })
})

const refusedPaths = [
  ['.. escaping', '../outside/secret.txt'],
  ['.. escaping after a folder', 'src/../../outside/secret.txt'],
  ['an absolute system path', '/etc/passwd'],
  ['an absolute path with ..', '/tmp/../etc/passwd'],
  ['percent-encoded ../', '%2e%2e%2foutside%2fsecret.txt'],
  ['a percent-encoded separator', 'src%2f..%2f..%2foutside'],
  ['a NUL byte', 'src/App.tsx\0.png'],
  ['a symlink as the last component', 'link-file'],
  ['a symlink pointing inside the workspace', 'inner-link'],
  ['a dangling symlink', 'dangling'],
  ['a path through a symlinked folder', 'link-dir/secret.txt'],
  ['a new file below a symlinked folder', 'link-dir/new-file.txt'],
] as const

async function outsideSnapshot() {
  const names = await readdir(outside)
  return { names: names.sort(), secret: await readFile(path.join(outside, 'secret.txt'), 'utf8') }
}

describe('path confinement', () => {
  describe.each(refusedPaths)('%s', (_label, refusedPath) => {
    it('read is refused', async () => {
      await expect(files.read(refusedPath)).rejects.toBeInstanceOf(WorkspacePathError)
    })

    it('write is refused and writes nothing outside', async () => {
      const before = await outsideSnapshot()
      await expect(files.write(refusedPath, 'pwned')).rejects.toBeInstanceOf(WorkspacePathError)
      expect(await outsideSnapshot()).toEqual(before)
    })

    it('delete is refused and deletes nothing', async () => {
      const before = await outsideSnapshot()
      await expect(files.delete(refusedPath)).rejects.toBeInstanceOf(WorkspacePathError)
      expect(await outsideSnapshot()).toEqual(before)
      expect((await readdir(workspace)).sort()).toEqual(
        ['dangling', 'inner-link', 'link-dir', 'link-file', 'src'].sort(),
      )
    })

    it('list is refused', async () => {
      await expect(files.list(refusedPath)).rejects.toBeInstanceOf(WorkspacePathError)
    })

    it('search is refused', async () => {
      await expect(files.search({ pattern: 'secret', path: refusedPath })).rejects.toBeInstanceOf(
        WorkspacePathError,
      )
    })
  })

  it('refuses the absolute path of a file outside', async () => {
    const secretPath = path.join(outside, 'secret.txt')
    await expect(files.read(secretPath)).rejects.toBeInstanceOf(WorkspacePathError)
    await expect(files.write(secretPath, 'pwned')).rejects.toBeInstanceOf(WorkspacePathError)
    await expect(files.delete(secretPath)).rejects.toBeInstanceOf(WorkspacePathError)
    expect(await readFile(secretPath, 'utf8')).toBe('top secret\n')
  })

  it('explains the refusal in words a user can act on', async () => {
    await expect(files.read('../outside/secret.txt')).rejects.toThrow(/outside the workspace/)
    await expect(files.read('/etc/passwd')).rejects.toThrow(/relative to the workspace root/)
    await expect(files.read('link-file')).rejects.toThrow(/symbolic link/)
  })

  it('never lists or searches through symlinks', async () => {
    const listed = await files.list('.', { recursive: true })
    expect(listed.map((entry) => entry.path)).toEqual(['src', 'src/App.tsx'])
    expect(await files.search({ pattern: 'top secret' })).toEqual([])
  })
})

describe('file operations inside the workspace', () => {
  it('reads, searches and lists past a FIFO without waiting on it', async () => {
    execFileSync('mkfifo', [path.join(workspace, 'src/pipe')])
    await expect(files.read('src/pipe')).rejects.toThrow(/is not a file/)
    expect(await files.search({ pattern: 'App', path: 'src' })).toHaveLength(1)
    expect(await files.search({ pattern: 'App', path: 'src/pipe' })).toEqual([])
    expect((await files.list('src')).map((entry) => entry.path)).toEqual(['src/App.tsx'])
    await files.delete('src/pipe')
  })

  it('writes, creating parent folders, and reads back', async () => {
    await files.write('src/components/deep/Button.tsx', 'export const Button = 1\n')
    expect(await files.read('src/components/deep/Button.tsx')).toBe('export const Button = 1\n')
    await files.write('src/components/deep/Button.tsx', 'replaced')
    expect(await files.read('./src/components/deep/Button.tsx')).toBe('replaced')
    expect(await files.read('src/../src/App.tsx')).toContain('App')
    await files.delete('src/components')
    await expect(files.read('src/components/deep/Button.tsx')).rejects.toThrow(/does not exist/)
  })

  it('lists without node_modules and .git', async () => {
    await mkdir(path.join(workspace, 'node_modules/react'), { recursive: true })
    await mkdir(path.join(workspace, '.git'), { recursive: true })
    await writeFile(path.join(workspace, 'node_modules/react/index.js'), 'App')
    await writeFile(path.join(workspace, 'index.html'), '<div id="root"></div>')
    const listed = await files.list()
    expect(listed).toEqual([
      { path: 'index.html', type: 'file', size: 21 },
      { path: 'src', type: 'directory', size: 0 },
    ])
    expect(await files.list('src')).toEqual([{ path: 'src/App.tsx', type: 'file', size: 25 }])
    await rm(path.join(workspace, 'index.html'))
  })

  it('searches with a regular expression, a literal fallback, a path and a file type', async () => {
    await files.write('src/util.ts', 'export const answer = 42\nconst text = "a(b"\n')
    expect(await files.search({ pattern: 'export (const|function)' })).toEqual([
      { path: 'src/App.tsx', line: 1, text: 'export function App() {}' },
      { path: 'src/util.ts', line: 1, text: 'export const answer = 42' },
    ])
    expect(await files.search({ pattern: 'a(b' })).toEqual([
      { path: 'src/util.ts', line: 2, text: 'const text = "a(b"' },
    ])
    expect(await files.search({ pattern: 'export', fileType: 'tsx' })).toHaveLength(1)
    expect(await files.search({ pattern: 'export', path: 'src/util.ts' })).toHaveLength(1)
    expect(await files.search({ pattern: 'export', maxMatches: 1 })).toHaveLength(1)
    await files.delete('src/util.ts')
  })
})

const runsAsRoot = process.getuid?.() === 0
describe.skipIf(!runsAsRoot)('with an owner (needs root, to chown)', () => {
  const owner = { uid: 4321, gid: 4322 }
  const ownerOf = async (relativePath: string) => {
    const stats = await lstat(path.join(workspace, relativePath))
    return { uid: stats.uid, gid: stats.gid }
  }

  it('gives the owner every file and folder the tools make, and only those', async () => {
    const owned = createWorkspaceFiles(workspace, { owner })
    await owned.write('src/made/deeper/File.tsx', 'x')
    expect(await ownerOf('src/made')).toEqual(owner)
    expect(await ownerOf('src/made/deeper')).toEqual(owner)
    expect(await ownerOf('src/made/deeper/File.tsx')).toEqual(owner)
    expect(await ownerOf('src')).toEqual({ uid: 0, gid: 0 })

    await writeFile(path.join(workspace, 'src/root-owned.ts'), 'old', { mode: 0o640 })
    await owned.write('src/root-owned.ts', 'new')
    expect(await ownerOf('src/root-owned.ts')).toEqual(owner)
    expect((await lstat(path.join(workspace, 'src/root-owned.ts'))).mode & 0o777).toBe(0o640)
    await owned.delete('src/made')
    await owned.delete('src/root-owned.ts')
  })
})

describe('names and paths past Linux limits, counted in bytes', () => {
  // 86 characters of 3 bytes: 258 bytes, over NAME_MAX (255) though short in characters.
  const longName = '€'.repeat(86)
  // 17 folders of 240 bytes: 4097 bytes in all, every name within its own limit.
  const longPath = Array.from({ length: 17 }, (_, index) => `${index}`.padEnd(121, 'é')).join('/')

  it('refuses a name over 255 bytes in every call, with the limit, and writes nothing', async () => {
    const calls = [
      () => files.read(`src/${longName}`),
      () => files.write(`src/${longName}/App.tsx`, 'x'),
      () => files.delete(longName),
      () => files.list(longName),
      () => files.search({ pattern: 'x', path: longName }),
    ]
    for (const call of calls) {
      const error = await call().catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(WorkspacePathError)
      expect((error as Error).message).toContain('at most 255 bytes')
    }
    expect(await readdir(path.join(workspace, 'src'))).not.toContain(longName)
  })

  it('refuses a whole path over 4096 bytes, with the limit, and writes nothing', async () => {
    const error = await files.write(longPath, 'x').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(WorkspacePathError)
    expect((error as Error).message).toContain('at most 4096 bytes')
    expect(await readdir(workspace)).not.toContain(longPath.split('/')[0])
  })

  it('takes a name of exactly 255 bytes', async () => {
    const name = `src/${'€'.repeat(85)}`
    await files.write(name, 'fits\n')
    expect(await files.read(name)).toBe('fits\n')
    await files.delete(name)
  })
})
