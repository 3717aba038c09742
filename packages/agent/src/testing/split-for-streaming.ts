/** Splits text into a few pieces so fakes stream it in several deltas. */
export function splitForStreaming(text: string, pieceCount = 3): string[] {
  if (text.length <= pieceCount) return [text]
  const size = Math.ceil(text.length / pieceCount)
  const pieces: string[] = []
  for (let offset = 0; offset < text.length; offset += size)
    pieces.push(text.slice(offset, offset + size))
  return pieces
}
