import path from 'node:path'
import { type Plugin, parseSync, Visitor } from 'vite'

/**
 * Sprout's Select mode (docs/product/builder.md in Sprout): in the dev server only, each HTML
 * element written in a file under src/ gets `data-sprout-source="src/App.tsx:14:7"`, where its
 * tag opens, so a click in the preview can name it. `vite build` never runs it: deploys carry none.
 */
export function sourceLocations(): Plugin {
  let sourceDirectory = path.resolve('src')
  let root = process.cwd()
  return {
    name: 'sprout-source-locations',
    apply: 'serve',
    // Before the React plugin turns JSX into calls.
    enforce: 'pre',
    configResolved(config) {
      root = config.root
      sourceDirectory = path.join(config.root, 'src')
    },
    transform: {
      filter: { id: /\.[jt]sx(\?.*)?$/ },
      handler(code, id) {
        const file = id.split('?')[0] ?? id
        if (!file.startsWith(sourceDirectory + path.sep) || file.includes('/node_modules/')) return
        const relative = path.relative(root, file).split(path.sep).join('/')
        // A name the attribute's quotes cannot hold is left untagged.
        if (/["\n]/.test(relative)) return
        const tagged = tagElements(code, relative, file.endsWith('.jsx'))
        return tagged === code ? undefined : { code: tagged, map: null }
      },
    },
  }
}

/** The attribute after each lowercase tag's name; the code as it was when it has none. */
export function tagElements(code: string, relative: string, isJsx = false): string {
  if (!code.includes('<')) return code
  const parsed = parseSync(relative, code, { lang: isJsx ? 'jsx' : 'tsx' })
  if (parsed.errors.length > 0) return code
  const lineStarts = [0]
  for (let index = code.indexOf('\n'); index !== -1; index = code.indexOf('\n', index + 1)) {
    lineStarts.push(index + 1)
  }
  const insertions: { at: number; text: string }[] = []
  new Visitor({
    JSXOpeningElement(node) {
      const { name } = node
      // Host elements only (`div`, `my-widget`): a component's props are its own.
      if (name.type !== 'JSXIdentifier' || !/^[a-z]/.test(name.name)) return
      const named = node.attributes.some(
        (attribute) =>
          attribute.type === 'JSXAttribute' &&
          attribute.name.type === 'JSXIdentifier' &&
          attribute.name.name === 'data-sprout-source',
      )
      if (named) return
      const line = lastLineAtOrBefore(lineStarts, node.start)
      const column = node.start - (lineStarts[line] ?? 0) + 1
      const location = `${relative}:${line + 1}:${column}`
      insertions.push({ at: name.end, text: ` data-sprout-source="${location}"` })
    },
  }).visit(parsed.program)
  if (insertions.length === 0) return code
  insertions.sort((first, second) => first.at - second.at)
  let result = ''
  let from = 0
  for (const insertion of insertions) {
    result += code.slice(from, insertion.at) + insertion.text
    from = insertion.at
  }
  return result + code.slice(from)
}

/** The index of the line holding `offset`: a binary search over the lines' starts. */
function lastLineAtOrBefore(lineStarts: number[], offset: number): number {
  let low = 0
  let high = lineStarts.length - 1
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if ((lineStarts[middle] ?? 0) <= offset) low = middle
    else high = middle - 1
  }
  return low
}
