/** The integration guide panel's title: the integration name plus 'Integration Guide'. */
export function integrationGuideTitle(integration: string): string {
  return `${integration} Integration Guide`
}

export function integrationGuideWaitingText(integration: string): string {
  return `Generating ${integration} guide...`
}

/** The guide's answer: the output itself when a string, else its response, answer or content. */
export function integrationGuideText(output: unknown): string {
  if (typeof output === 'string') return output
  if (typeof output !== 'object' || output === null) return ''
  const fields = output as Record<string, unknown>
  for (const key of ['response', 'answer', 'content']) {
    const value = fields[key]
    if (typeof value === 'string') return value
  }
  return ''
}
