import { dropPartialSecretRequest, splitSecretRequests } from './secret-request.ts'

/**
 * The chat's light markdown (docs/product/builder.md "Message text rendering"), parsed into a tree
 * the web app renders with React elements: text is only ever text, raw HTML is never interpreted.
 * Beyond those rules: ``` fenced code blocks, since agents write them constantly.
 */
export type InlineNode =
  | { type: 'text'; text: string }
  | { type: 'bold'; children: InlineNode[] }
  | { type: 'italic'; children: InlineNode[] }
  | { type: 'code'; text: string }
  /** `[text](https://…)`; only web and mail addresses become links. */
  | { type: 'link'; href: string; children: InlineNode[] }

export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6

export type MarkdownNode =
  /** Rendered bold, whatever the level. */
  | { type: 'heading'; level: HeadingLevel; children: InlineNode[] }
  | { type: 'line'; children: InlineNode[] }
  /** One or more blank lines. */
  | { type: 'break' }
  | { type: 'code-block'; language: string; text: string }
  | { type: 'secret-request'; key: string }

const headingPattern = /^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/
const fencePattern = /^[ \t]*```[ \t]*([\w+#.-]*)[ \t]*$/

export function parseLightMarkdown(text: string): MarkdownNode[] {
  const lines = dropPartialSecretRequest(text.replace(/\r\n?/g, '\n')).split('\n')
  const nodes: MarkdownNode[] = []
  let fence: { language: string; lines: string[] } | null = null
  for (const line of lines) {
    if (fence) {
      if (fencePattern.exec(line)?.[1] === '') {
        nodes.push({ type: 'code-block', language: fence.language, text: fence.lines.join('\n') })
        fence = null
      } else {
        fence.lines.push(line)
      }
      continue
    }
    const fenceOpening = fencePattern.exec(line)
    if (fenceOpening) {
      fence = { language: fenceOpening[1] ?? '', lines: [] }
      continue
    }
    if (line.trim() === '') {
      if (nodes.length > 0 && nodes.at(-1)?.type !== 'break') nodes.push({ type: 'break' })
      continue
    }
    const heading = headingPattern.exec(line)
    if (heading?.[1] && heading[2] !== undefined) {
      const level = heading[1].length as HeadingLevel
      nodes.push({ type: 'heading', level, children: parseInline(heading[2]) })
      continue
    }
    for (const segment of splitSecretRequests(line)) {
      if (segment.type === 'secret-request') nodes.push(segment)
      else if (segment.text.trim() !== '')
        nodes.push({ type: 'line', children: parseInline(segment.text) })
    }
  }
  // An unclosed fence is still streaming: show what has arrived.
  if (fence)
    nodes.push({ type: 'code-block', language: fence.language, text: fence.lines.join('\n') })
  if (nodes.at(-1)?.type === 'break') nodes.pop()
  return nodes
}

/**
 * **bold**, __italic__, `code` and [links](https://…); unmatched markers stay literal text. A link
 * to anything but a web or mail address (a path, a page of some docs) shows as its text alone.
 */
export function parseInline(text: string): InlineNode[] {
  const nodes: InlineNode[] = []
  let buffer = ''
  const flush = () => {
    if (buffer !== '') nodes.push({ type: 'text', text: buffer })
    buffer = ''
  }
  let index = 0
  while (index < text.length) {
    if (text[index] === '`') {
      const run = backtickRunLength(text, index)
      const close = findCodeSpanEnd(text, index, run)
      if (close !== -1) {
        flush()
        nodes.push({ type: 'code', text: text.slice(index + run, close) })
        index = close + run
      } else {
        buffer += text.slice(index, index + run)
        index += run
      }
      continue
    }
    const link = text[index] === '[' ? readLink(text, index) : undefined
    if (link) {
      flush()
      const children = parseInline(link.label)
      if (linkTarget.test(link.target)) nodes.push({ type: 'link', href: link.target, children })
      else nodes.push(...children)
      index = link.end
      continue
    }
    const marker = text.slice(index, index + 2)
    if ((marker === '**' || marker === '__') && canOpen(text, index, marker)) {
      const close = findClosingMarker(text, marker, index + 2)
      if (close !== -1) {
        flush()
        const children = parseInline(text.slice(index + 2, close))
        nodes.push({ type: marker === '**' ? 'bold' : 'italic', children })
        index = close + 2
        continue
      }
    }
    buffer += text[index]
    index++
  }
  flush()
  return nodes
}

const linkTarget = /^(?:https?:\/\/|mailto:)\S+$/i

/** `[label](target)` starting at `start`: no brackets in the label, no spaces in the target. */
function readLink(text: string, start: number) {
  const labelEnd = text.indexOf(']', start + 1)
  if (labelEnd === -1 || text[labelEnd + 1] !== '(') return undefined
  const label = text.slice(start + 1, labelEnd)
  if (label.trim() === '' || label.includes('[')) return undefined
  const targetEnd = text.indexOf(')', labelEnd + 2)
  if (targetEnd === -1) return undefined
  const target = text.slice(labelEnd + 2, targetEnd)
  if (!/^\S+$/.test(target)) return undefined
  return { label, target, end: targetEnd + 1 }
}

function backtickRunLength(text: string, start: number): number {
  let end = start
  while (text[end] === '`') end++
  return end - start
}

/** The start of the closing run of exactly `run` backticks, or -1. */
function findCodeSpanEnd(text: string, start: number, run: number): number {
  let index = start + run
  while (index < text.length) {
    if (text[index] === '`') {
      const length = backtickRunLength(text, index)
      if (length === run && index > start + run) return index
      index += length
    } else {
      index++
    }
  }
  return -1
}

const wordCharacter = /[\p{L}\p{N}]/u

// Double underscores inside a word (snake__case__name) are not emphasis.
function canOpen(text: string, index: number, marker: string): boolean {
  const next = text[index + 2]
  if (next === undefined || /\s/.test(next)) return false
  if (marker === '__' && index > 0 && wordCharacter.test(text[index - 1] ?? '')) return false
  return true
}

function findClosingMarker(text: string, marker: string, from: number): number {
  let index = from
  while (index < text.length) {
    if (text[index] === '`') {
      const run = backtickRunLength(text, index)
      const close = findCodeSpanEnd(text, index, run)
      index = close === -1 ? index + run : close + run
      continue
    }
    if (text.startsWith(marker, index) && index > from && canClose(text, index, marker))
      return index
    index++
  }
  return -1
}

function canClose(text: string, index: number, marker: string): boolean {
  if (/\s/.test(text[index - 1] ?? '')) return false
  if (marker === '__' && wordCharacter.test(text[index + 2] ?? '')) return false
  return true
}
