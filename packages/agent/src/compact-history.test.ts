import type { ModelMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { estimateTokens } from './compact-history.ts'

describe('estimateTokens', () => {
  it('counts an attached image as the tokens a provider counts for it, not its bytes as text', () => {
    const text: ModelMessage = { role: 'user', content: 'What is in this picture?' }
    const withImage: ModelMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture?' },
        {
          type: 'file',
          data: { type: 'data', data: new Uint8Array(5 * 1024 * 1024) },
          mediaType: 'image/png',
        },
      ],
    }
    const textOnly = estimateTokens([text])
    const imageOnly = estimateTokens([withImage]) - textOnly
    // Five megabytes read as JSON text would be millions of tokens, enough to compact at once.
    expect(imageOnly).toBeGreaterThan(1_500)
    expect(imageOnly).toBeLessThan(1_700)
    // A tool's JSON with a `data` field is text, whatever it holds.
    const toolData: ModelMessage = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c',
          toolName: 'read',
          output: { type: 'json', value: { data: { rows: 'x'.repeat(4000) } } },
        },
      ],
    }
    expect(estimateTokens([toolData])).toBeGreaterThan(1_000)
  })
})
