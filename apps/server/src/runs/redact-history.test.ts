import { createSecretRedactor } from '@sprout/protocol/text/redact-secrets.ts'
import type { ModelMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { redactHistory } from './redact-history.ts'

const secret = 'sk-live-0123456789abcdef'
// A value that is also a word of the history's structure.
const { redact } = createSecretRedactor({ API_KEY: secret, ROLE: 'user' })

describe('a run history, redacted', () => {
  it("redacts the model's text, reasoning and tool calls, keeping the messages' structure", () => {
    const image = new Uint8Array([1, 2, 3])
    const history: ModelMessage[] = [
      { role: 'user', content: `the user key ${secret}` },
      {
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            text: `it is ${secret}`,
            providerOptions: { anthropic: { signature: 'signed' } },
          },
          {
            type: 'reasoning',
            text: 'nothing here',
            providerOptions: { anthropic: { signature: 's2' } },
          },
          { type: 'text', text: `The key ${secret} works.` },
          {
            type: 'tool-call',
            toolCallId: 'call-1',
            toolName: 'shell_exec',
            input: { command: `echo ${secret}` },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call-1',
            toolName: 'shell_exec',
            output: { type: 'text', value: `printed ${secret}` },
          },
        ],
      },
      { role: 'user', content: [{ type: 'image', image, mediaType: 'image/png' }] },
    ]
    const redacted = redactHistory(history, redact)
    expect(JSON.stringify(redacted)).not.toContain(secret)
    expect(redacted[0]).toEqual({ role: 'user', content: 'the [secret ROLE] key [secret API_KEY]' })
    expect(redacted[1]).toEqual({
      role: 'assistant',
      content: [
        // Its signature no longer fits: the provider skips it instead of refusing the history.
        { type: 'reasoning', text: 'it is [secret API_KEY]' },
        {
          type: 'reasoning',
          text: 'nothing here',
          providerOptions: { anthropic: { signature: 's2' } },
        },
        { type: 'text', text: 'The key [secret API_KEY] works.' },
        {
          type: 'tool-call',
          toolCallId: 'call-1',
          toolName: 'shell_exec',
          input: { command: 'echo [secret API_KEY]' },
        },
      ],
    })
    expect(redacted[2]).toMatchObject({
      content: [{ output: { type: 'text', value: 'printed [secret API_KEY]' } }],
    })
    expect(redacted[3]).toEqual(history[3])
  })
})
