/** How deeply a JSON request body or Sentry item may nest arrays and objects. */
export const JSON_MAX_DEPTH = 64

const quote = 0x22
const backslash = 0x5c
const openBracket = 0x5b
const closeBracket = 0x5d
const openBrace = 0x7b
const closeBrace = 0x7d

/**
 * Whether `text`, read as JSON, nests arrays and objects deeper than `maxDepth`. One pass over
 * the raw text, brackets inside strings ignored, so nothing deep is ever parsed or walked.
 */
export function exceedsJsonDepth(text: string, maxDepth = JSON_MAX_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === backslash) index++
      else if (code === quote) inString = false
    } else if (code === quote) {
      inString = true
    } else if (code === openBracket || code === openBrace) {
      depth++
      if (depth > maxDepth) return true
    } else if (code === closeBracket || code === closeBrace) {
      depth--
    }
  }
  return false
}

export const jsonTooDeepMessage = (what = 'The JSON body') =>
  `${what} nests arrays and objects more than ${JSON_MAX_DEPTH} levels deep`
