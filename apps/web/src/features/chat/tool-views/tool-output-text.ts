/** A tool's output as text: strings as they are, anything else as indented JSON. */
export function toolOutputText(output: unknown): string {
  if (output === undefined || output === null) return ''
  if (typeof output === 'string') return output
  try {
    return JSON.stringify(output, null, 2) ?? ''
  } catch {
    return String(output)
  }
}

/** Reads one field of a tool's input, whatever its shape. */
export function inputField(input: unknown, key: string): unknown {
  return typeof input === 'object' && input !== null
    ? (input as Record<string, unknown>)[key]
    : undefined
}

export function inputString(input: unknown, key: string): string | undefined {
  const value = inputField(input, key)
  return typeof value === 'string' ? value : undefined
}
