import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkLabel, loadSpecs, parseSpec, SpecError } from './spec-format.ts'

const valid = {
  name: 'Guest book',
  prompt: 'Build a guest book',
  checks: [
    {
      request: { method: 'POST', path: '/api/entries', body: { name: 'Ada' } },
      expect: { status: 201 },
    },
    { request: { path: '/api/entries' }, expect: { json: { entries: [] } } },
    { page: '/', text: 'Guest Book' },
  ],
}

const problemOf = (spec: unknown) => {
  try {
    parseSpec('evals/agent/x.json', JSON.stringify(spec))
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError)
    return (error as Error).message
  }
  throw new Error('the spec was accepted')
}

describe('parseSpec', () => {
  it('reads a spec with request and page checks; a request is a GET by default', () => {
    const spec = parseSpec('evals/agent/x.json', JSON.stringify(valid))
    expect(spec.file).toBe('evals/agent/x.json')
    expect(spec.checks).toHaveLength(3)
    expect(spec.checks[1]).toMatchObject({ request: { method: 'GET', path: '/api/entries' } })
    expect(spec.checks.map(checkLabel)).toEqual([
      'POST /api/entries',
      'GET /api/entries',
      'page / shows "Guest Book"',
    ])
  })

  it('names the file and the field of each problem', () => {
    expect(problemOf({ ...valid, prompt: '' })).toBe(
      'evals/agent/x.json: prompt: Too small: expected string to have >=1 characters',
    )
    expect(
      problemOf({ ...valid, checks: [{ request: { path: 'api' }, expect: { status: 200 } }] }),
    ).toContain('evals/agent/x.json: checks.0.request.path: must start with /')
    expect(problemOf({ ...valid, checks: [{ request: { path: '/api' }, expect: {} }] })).toContain(
      'checks.0.expect: must expect a status, text or JSON',
    )
    expect(problemOf({ name: 'x', prompt: 'y', checks: [] })).toContain('checks: Too small')
  })

  it('refuses fields it does not know, so a typo is not a silently skipped check', () => {
    expect(problemOf({ ...valid, check: [] })).toContain(
      'evals/agent/x.json: (the spec): Unrecognized key: "check"',
    )
    expect(problemOf({ ...valid, checks: [{ page: '/', text: 'Hi', txt: 'Hello' }] })).toContain(
      'checks.0',
    )
  })

  it('says when the file is no JSON', () => {
    expect(() => parseSpec('evals/agent/x.json', '{ name: ')).toThrow(
      /^evals\/agent\/x\.json: not JSON/,
    )
  })
})

describe('loadSpecs', () => {
  let folder: string | undefined
  afterEach(async () => {
    if (folder) await rm(folder, { recursive: true, force: true })
  })

  it('reads every .json of the folder in name order and reports every bad one', async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'agent-eval-specs-'))
    await writeFile(path.join(folder, 'b.json'), JSON.stringify({ ...valid, name: 'B' }))
    await writeFile(path.join(folder, 'a.json'), JSON.stringify({ ...valid, name: 'A' }))
    await writeFile(path.join(folder, 'notes.txt'), 'not a spec')
    expect((await loadSpecs(folder)).map((spec) => spec.name)).toEqual(['A', 'B'])

    await writeFile(path.join(folder, 'c.json'), JSON.stringify({ ...valid, name: 'A' }))
    await writeFile(path.join(folder, 'd.json'), JSON.stringify({ ...valid, name: '' }))
    const error = (await loadSpecs(folder).catch((caught: unknown) => caught)) as Error
    expect(error).toBeInstanceOf(SpecError)
    expect(error.message).toContain(`${path.join(folder, 'd.json')}: name:`)
    expect(error.message).toContain(`${path.join(folder, 'c.json')}: name: "A" is used twice`)
  })

  it('says when the folder is missing or holds no spec', async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'agent-eval-specs-'))
    await expect(loadSpecs(folder)).rejects.toThrow('no .json specs in it')
    await expect(loadSpecs(path.join(folder, 'nowhere'))).rejects.toThrow('no such folder of specs')
  })

  it('accepts the example specs', async () => {
    const specs = await loadSpecs('evals/agent')
    expect(specs.length).toBeGreaterThanOrEqual(3)
  })
})
