import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

// The repository's source files and their relative imports, for the architecture tests.

export const root = path.resolve(import.meta.dirname, '../..')

export function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(folder, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(relative)
    return /\.tsx?$/.test(entry.name) ? [relative] : []
  })
}

/** Relative imports of a file, resolved to paths from the repository's root. */
export function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8')
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)]
  return specifiers.map((match) => path.join(path.dirname(file), match[1] as string))
}

/** Test files and test helpers may reach anything. */
export const isTestCode = (file: string) => /(\.test\.|test-|testing\/)/.test(file)

/** The strongly connected groups of more than one node (Tarjan), each sorted and joined. */
export function findCycles(edges: Map<string, Set<string>>): string[] {
  const index = new Map<string, number>()
  const lowest = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[] = []
  const visit = (node: string) => {
    index.set(node, index.size)
    lowest.set(node, index.get(node) as number)
    stack.push(node)
    onStack.add(node)
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        lowest.set(node, Math.min(lowest.get(node) as number, lowest.get(next) as number))
      } else if (onStack.has(next)) {
        lowest.set(node, Math.min(lowest.get(node) as number, index.get(next) as number))
      }
    }
    if (lowest.get(node) !== index.get(node)) return
    const group: string[] = []
    let member: string | undefined
    do {
      member = stack.pop() as string
      onStack.delete(member)
      group.push(member)
    } while (member !== node)
    if (group.length > 1) cycles.push(group.sort().join(' ↔ '))
  }
  for (const node of edges.keys()) if (!index.has(node)) visit(node)
  return cycles.sort()
}
