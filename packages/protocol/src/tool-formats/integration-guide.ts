import { INTEGRATION_PRESETS } from '../api/integrations.ts'

const compact = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '')

/**
 * How the panel names the integration the model asked about: a preset's display name for what
 * the model calls it ('linear' → 'Linear', 'google sheets' → 'Google Sheets'), else the name as
 * given with a capital first letter.
 */
export function integrationDisplayName(integration: string): string {
  const given = integration.trim()
  const wanted = compact(given)
  const preset =
    wanted === ''
      ? undefined
      : (INTEGRATION_PRESETS.find((candidate) => compact(candidate.preset) === wanted) ??
        INTEGRATION_PRESETS.find((candidate) => compact(candidate.display_name) === wanted))
  if (preset) return preset.display_name
  return given.charAt(0).toUpperCase() + given.slice(1)
}

/** The integration guide panel's title: the integration name plus 'Integration Guide'. */
export function integrationGuideTitle(integration: string): string {
  return `${integrationDisplayName(integration)} Integration Guide`
}

export function integrationGuideWaitingText(integration: string): string {
  return `Generating ${integrationDisplayName(integration)} guide...`
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
