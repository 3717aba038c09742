import { DIFF_CONTEXT_LINES } from '../constants.ts'

export interface DiffLine {
  type: 'context' | 'added' | 'removed'
  text: string
  /** 1-based; absent on added lines. */
  oldLineNumber?: number
  /** 1-based; absent on removed lines. */
  newLineNumber?: number
}

export interface DiffHunk {
  lines: DiffLine[]
}

export interface LineDiff {
  added: number
  removed: number
  /** Changed lines with up to `context` unchanged lines around them; far-apart changes split. */
  hunks: DiffHunk[]
}

// Above this many cells the exact diff would cost too much memory; show remove-all, add-all.
const maximumTableCells = 4_000_000

/** str_replace's view: a line diff of old_str against new_str with 4 lines of context. */
export function diffLines(
  oldText: string,
  newText: string,
  context: number = DIFF_CONTEXT_LINES,
): LineDiff {
  const lines = editScript(splitLines(oldText), splitLines(newText))
  const added = lines.filter((line) => line.type === 'added').length
  const removed = lines.filter((line) => line.type === 'removed').length
  return { added, removed, hunks: toHunks(lines, context) }
}

function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  if (lines.at(-1) === '') lines.pop()
  return lines
}

function editScript(oldLines: string[], newLines: string[]): DiffLine[] {
  let prefix = 0
  while (
    prefix < oldLines.length &&
    prefix < newLines.length &&
    oldLines[prefix] === newLines[prefix]
  ) {
    prefix++
  }
  let suffix = 0
  while (
    suffix < oldLines.length - prefix &&
    suffix < newLines.length - prefix &&
    oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
  ) {
    suffix++
  }
  const oldMiddle = oldLines.slice(prefix, oldLines.length - suffix)
  const newMiddle = newLines.slice(prefix, newLines.length - suffix)
  const script: DiffLine[] = []
  const context = (oldIndex: number, newIndex: number) =>
    script.push({
      type: 'context',
      text: oldLines[oldIndex] ?? '',
      oldLineNumber: oldIndex + 1,
      newLineNumber: newIndex + 1,
    })
  for (let index = 0; index < prefix; index++) context(index, index)
  for (const line of diffMiddle(oldMiddle, newMiddle)) {
    script.push({
      ...line,
      ...(line.oldLineNumber === undefined ? {} : { oldLineNumber: line.oldLineNumber + prefix }),
      ...(line.newLineNumber === undefined ? {} : { newLineNumber: line.newLineNumber + prefix }),
    })
  }
  for (let index = suffix; index > 0; index--) {
    context(oldLines.length - index, newLines.length - index)
  }
  return script
}

/** Longest common subsequence over the lines that differ; line numbers relative to the middle. */
function diffMiddle(oldLines: string[], newLines: string[]): DiffLine[] {
  const rows = oldLines.length
  const columns = newLines.length
  if (rows * columns > maximumTableCells) {
    return [
      ...oldLines.map((text, index) => removedLine(text, index)),
      ...newLines.map((text, index) => addedLine(text, index)),
    ]
  }
  const width = columns + 1
  // common[i * width + j]: LCS length of oldLines[i..] and newLines[j..].
  const common = new Uint32Array((rows + 1) * width)
  for (let row = rows - 1; row >= 0; row--) {
    for (let column = columns - 1; column >= 0; column--) {
      common[row * width + column] =
        oldLines[row] === newLines[column]
          ? (common[(row + 1) * width + column + 1] ?? 0) + 1
          : Math.max(common[(row + 1) * width + column] ?? 0, common[row * width + column + 1] ?? 0)
    }
  }
  const script: DiffLine[] = []
  let row = 0
  let column = 0
  while (row < rows || column < columns) {
    if (row < rows && column < columns && oldLines[row] === newLines[column]) {
      script.push({
        type: 'context',
        text: oldLines[row] ?? '',
        oldLineNumber: row + 1,
        newLineNumber: column + 1,
      })
      row++
      column++
    } else if (
      column < columns &&
      (row === rows ||
        (common[row * width + column + 1] ?? 0) > (common[(row + 1) * width + column] ?? 0))
    ) {
      script.push(addedLine(newLines[column] ?? '', column))
      column++
    } else {
      script.push(removedLine(oldLines[row] ?? '', row))
      row++
    }
  }
  return script
}

function addedLine(text: string, index: number): DiffLine {
  return { type: 'added', text, newLineNumber: index + 1 }
}

function removedLine(text: string, index: number): DiffLine {
  return { type: 'removed', text, oldLineNumber: index + 1 }
}

function toHunks(lines: DiffLine[], context: number): DiffHunk[] {
  const hunks: DiffHunk[] = []
  let start = -1
  let end = -1
  lines.forEach((line, index) => {
    if (line.type === 'context') return
    const from = Math.max(0, index - context)
    if (start !== -1 && from > end + 1) {
      hunks.push({ lines: lines.slice(start, end + 1) })
      start = -1
    }
    if (start === -1) start = from
    end = Math.min(lines.length - 1, index + context)
  })
  if (start !== -1) hunks.push({ lines: lines.slice(start, end + 1) })
  return hunks
}
