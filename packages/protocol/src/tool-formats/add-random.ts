/** add_random's output: 'Randomly added: N, for a final result of: M'. */
export interface AddRandomResult {
  added: number
  result: number
}

const number = String.raw`-?\d+(?:\.\d+)?(?:e[+-]?\d+)?`
const pattern = new RegExp(`^Randomly added: (${number}), for a final result of: (${number})$`, 'i')

export function formatAddRandom(value: AddRandomResult): string {
  return `Randomly added: ${value.added}, for a final result of: ${value.result}`
}

/** Null when the text is not add_random's format (the view then shows it raw). */
export function parseAddRandom(text: string): AddRandomResult | null {
  const match = pattern.exec(text.trim())
  if (!match?.[1] || !match[2]) return null
  return { added: Number(match[1]), result: Number(match[2]) }
}
