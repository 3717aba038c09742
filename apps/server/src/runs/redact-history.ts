import type { ModelMessage } from 'ai'

/** Plain data only: binary parts (Uint8Array), URLs and the like are kept as they are. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

const structural = new Set(['providerOptions', 'role', 'type', 'toolCallId', 'toolName'])

function redactData(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value)
  if (Array.isArray(value)) return value.map((item) => redactData(item, redact))
  if (!isPlainObject(value)) return value
  const copy: Record<string, unknown> = {}
  // A file's or image's bytes (base64 once stored) are not text a value could be read from.
  const isMedia = 'mediaType' in value || 'mimeType' in value
  for (const [field, inner] of Object.entries(value)) {
    // The provider's opaque data (a thinking block's signature, an item id) is sent back as is,
    // and the message's structure stays whole whatever a value is (a secret `text` or `user`).
    const opaque = structural.has(field) || (isMedia && (field === 'data' || field === 'image'))
    copy[field] = opaque ? inner : redactData(inner, redact)
  }
  return copy
}

/**
 * The history a run ended with, with the app's secret values redacted: the model's replies, its
 * reasoning and its tool calls' inputs may repeat a value the tools showed it, and the history is
 * stored and sent to the provider again (docs/product/vault.md "Redaction"). A reasoning part
 * that held one loses its provider signature, which no longer matches: providers then skip it.
 */
export function redactHistory(
  history: ModelMessage[],
  redact: (text: string) => string,
): ModelMessage[] {
  return history.map((message) => {
    if (typeof message.content === 'string') {
      return { ...message, content: redact(message.content) } as ModelMessage
    }
    const content = message.content.map((part) => {
      const redacted = redactData(part, redact) as typeof part
      if (part.type !== 'reasoning' || !('text' in redacted) || redacted.text === part.text) {
        return redacted
      }
      const { providerOptions: _signed, ...unsigned } = redacted
      return unsigned
    })
    return { ...message, content } as ModelMessage
  })
}
