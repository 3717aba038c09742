/** Up to two capital letters for an avatar: "Ada Lovelace" → "AL", "ada@example.com" → "A". */
export function initials(nameOrEmail: string): string {
  const words = nameOrEmail
    .replace(/@.*$/, '')
    .split(/[\s._-]+/)
    .filter(Boolean)
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [words[0]]
  return (
    letters
      .map((word) => word?.[0] ?? '')
      .join('')
      .toUpperCase() || '?'
  )
}
