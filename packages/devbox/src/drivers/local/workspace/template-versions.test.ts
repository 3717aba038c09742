import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { templateVersions } from './template-versions.ts'

let directory = ''
afterAll(() => rm(directory, { recursive: true, force: true }))

it("changes a starter's version with its files, not with what is installed or built in it", async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'sprout-template-versions-'))
  const starter = path.join(directory, 'fullstack')
  await mkdir(path.join(starter, 'src'), { recursive: true })
  await writeFile(path.join(starter, 'src', 'App.tsx'), 'export {}\n')
  const first = templateVersions(directory)('fullstack')
  expect(first).toMatch(/^[0-9a-f]{16}$/)
  await mkdir(path.join(starter, 'node_modules', 'x'), { recursive: true })
  await writeFile(path.join(starter, 'node_modules', 'x', 'index.js'), '1')
  expect(templateVersions(directory)('fullstack')).toBe(first)
  await writeFile(path.join(starter, 'src', 'App.tsx'), 'export const changed = 1\n')
  expect(templateVersions(directory)('fullstack')).not.toBe(first)
  expect(templateVersions(directory)('vite-react')).toBeUndefined()
})
