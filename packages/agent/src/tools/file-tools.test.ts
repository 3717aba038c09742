import { existsSync } from 'node:fs'
import path from 'node:path'
import { createWorkspaceFiles } from '@sprout/devbox/drivers/local/workspace/workspace-files.ts'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { executeTool } from '../testing/execute-tool.ts'
import { createTempFolderDevbox, type TempFolderDevbox } from '../testing/temp-folder-devbox.ts'
import { createDeleteFileTool } from './delete-file.ts'
import { createListFilesTool } from './list-files.ts'
import { createSearchTool } from './search.ts'
import { createStrReplaceTool } from './str-replace.ts'
import type { ToolContext } from './tool-context.ts'
import { TOOL_OUTPUT_LIMIT } from './tool-output.ts'
import { createViewFileTool } from './view-file.ts'
import { createWriteFileTool } from './write-file.ts'

let devbox: TempFolderDevbox
let context: ToolContext

beforeEach(async () => {
  devbox = await createTempFolderDevbox()
  context = { devbox }
})
afterEach(() => devbox.remove())

describe('write_file and view_file', () => {
  test('writes a file, creating folders, and reads it back', async () => {
    const output = await executeTool(createWriteFileTool(context), {
      path: 'src/components/Button.tsx',
      content: 'export const a = 1\nexport const b = 2\n',
    })
    expect(output).toBe('Wrote src/components/Button.tsx (3 lines).')
    const read = await executeTool(createViewFileTool(context), {
      path: 'src/components/Button.tsx',
    })
    expect(read).toBe('export const a = 1\nexport const b = 2\n')
  })

  test('refuses ../escape and writes nothing outside the workspace', async () => {
    const write = createWriteFileTool(context)
    await expect(executeTool(write, { path: '../escape', content: 'x' })).rejects.toThrow(
      /outside the workspace/,
    )
    await expect(executeTool(write, { path: '/etc/escape', content: 'x' })).rejects.toThrow(
      /Absolute paths/,
    )
    expect(existsSync(path.join(devbox.workspacePath, '..', 'escape'))).toBe(false)
  })

  test('the real local driver refuses ../escape too', async () => {
    const files = createWorkspaceFiles(devbox.workspacePath)
    const write = createWriteFileTool({ devbox: { files, exec: devbox.exec } })
    await expect(executeTool(write, { path: '../escape', content: 'x' })).rejects.toThrow()
    expect(existsSync(path.join(devbox.workspacePath, '..', 'escape'))).toBe(false)
  })

  test('a missing file is an error naming the path', async () => {
    await expect(
      executeTool(createViewFileTool(context), { path: 'src/missing.ts' }),
    ).rejects.toThrow('Not found: src/missing.ts')
  })

  test('a long file is cut with a note', async () => {
    await devbox.files.write('big.txt', 'x'.repeat(TOOL_OUTPUT_LIMIT + 500))
    const read = await executeTool(createViewFileTool(context), { path: 'big.txt' })
    expect(read.length).toBeLessThan(TOOL_OUTPUT_LIMIT + 100)
    expect(read).toMatch(/\[output cut: 500 more characters were omitted\]$/)
  })

  test('secrets are redacted from output', async () => {
    await devbox.files.write('.env', 'API_KEY=sk-secret-123\n')
    const redacting = {
      devbox,
      redact: (text: string) => text.replaceAll('sk-secret-123', '[redacted]'),
    }
    const read = await executeTool(createViewFileTool(redacting), { path: '.env' })
    expect(read).toBe('API_KEY=[redacted]\n')
  })
})

describe('str_replace', () => {
  beforeEach(() => devbox.files.write('src/App.tsx', 'const a = 1\nconst b = 2\nconst a2 = 1\n'))
  const edit = (old_str: string, new_str: string) =>
    executeTool(createStrReplaceTool(context), { path: 'src/App.tsx', old_str, new_str })

  test('replaces one unique match', async () => {
    expect(await edit('const b = 2', 'const b = 3\nconst c = 4')).toBe(
      'Edited src/App.tsx: replaced 1 line(s) with 2 line(s).',
    )
    expect(await devbox.files.read('src/App.tsx')).toBe(
      'const a = 1\nconst b = 3\nconst c = 4\nconst a2 = 1\n',
    )
  })

  test('keeps $ patterns in new_str literally', async () => {
    await edit('const b = 2', 'const b = `$&$1`')
    expect(await devbox.files.read('src/App.tsx')).toContain('const b = `$&$1`')
  })

  test('explains a missing match', async () => {
    await expect(edit('const z = 9', 'x')).rejects.toThrow(/old_str was not found in src\/App.tsx/)
  })

  test('explains multiple matches and changes nothing', async () => {
    await expect(edit('= 1', '= 5')).rejects.toThrow(/matches 2 places/)
    expect(await devbox.files.read('src/App.tsx')).toBe('const a = 1\nconst b = 2\nconst a2 = 1\n')
  })

  test('refuses an empty old_str', async () => {
    await expect(edit('', 'x')).rejects.toThrow(/old_str is empty/)
  })
})

describe('delete_file, list_files and search', () => {
  test('deletes a file', async () => {
    await devbox.files.write('src/old.ts', 'x')
    expect(await executeTool(createDeleteFileTool(context), { path: 'src/old.ts' })).toBe(
      'Deleted src/old.ts.',
    )
    expect(existsSync(path.join(devbox.workspacePath, 'src/old.ts'))).toBe(false)
  })

  test('lists the tree without node_modules', async () => {
    await devbox.files.write('src/App.tsx', 'x')
    await devbox.files.write('node_modules/react/index.js', 'x')
    const listing = await executeTool(createListFilesTool(context), {})
    expect(listing.split('\n').sort()).toEqual(['src/', 'src/App.tsx'])
  })

  test('searches contents with file type', async () => {
    await devbox.files.write('src/App.tsx', 'export function App() {}\n')
    await devbox.files.write('src/notes.md', 'App notes\n')
    const found = await executeTool(createSearchTool(context), { pattern: 'App', file_type: 'tsx' })
    expect(found).toBe('src/App.tsx:1: export function App() {}')
    const none = await executeTool(createSearchTool(context), { pattern: 'nothing-here' })
    expect(none).toBe('No matches for nothing-here.')
  })
})
