import { describe, expect, it } from 'vitest'
import { parseFileChanges } from './version-files.ts'

describe('the files a commit changed, from git -z output', () => {
  it('pairs --name-status with --numstat, renames and binary files included', () => {
    const nameStatus = [
      'M',
      'src/App.tsx',
      'R087',
      'src/old name.ts',
      'src/new name.ts',
      'A',
      'public/logo.png',
      'D',
      'gone.ts',
      '',
    ]
    const numstat = [
      '3\t1\tsrc/App.tsx',
      '2\t2\t',
      'src/old name.ts',
      'src/new name.ts',
      '-\t-\tpublic/logo.png',
      '0\t4\tgone.ts',
      '',
    ]
    const output = `${nameStatus.join('\0')}\0--sprout-numstat--\0${numstat.join('\0')}`
    expect(parseFileChanges(output)).toEqual([
      { path: 'src/App.tsx', status: 'modified', added: 3, removed: 1 },
      {
        path: 'src/new name.ts',
        previousPath: 'src/old name.ts',
        status: 'renamed',
        added: 2,
        removed: 2,
      },
      { path: 'public/logo.png', status: 'added', added: null, removed: null },
      { path: 'gone.ts', status: 'deleted', added: 0, removed: 4 },
    ])
  })

  it('answers no files for an empty commit', () => {
    expect(parseFileChanges('\0--sprout-numstat--\0')).toEqual([])
  })
})
