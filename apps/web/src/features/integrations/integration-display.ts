/** How integrations read on screen (docs/product/integrations.md, docs/product/admin.md). */

type Listed = { service_name: string; scopes: string[]; preset?: string | null }

/** The settings grid lists integrations by `service_name`. */
export function sortByServiceName<T extends { service_name: string }>(integrations: T[]): T[] {
  return [...integrations].sort((left, right) =>
    left.service_name < right.service_name ? -1 : left.service_name > right.service_name ? 1 : 0,
  )
}

/** The spreadsheet integration is the one with the picker ('Select Files'). */
export function isSpreadsheetIntegration(integration: Listed): boolean {
  return (
    integration.preset === 'google-sheets' ||
    (!integration.preset && /sheets?$/i.test(integration.service_name))
  )
}

/** 'File-specific access' for the spreadsheet one, its single scope, else 'Read / write permissions'. */
export function integrationSubtitle(integration: Listed): string {
  if (isSpreadsheetIntegration(integration)) return 'File-specific access'
  const [only, ...others] = integration.scopes
  if (only !== undefined && others.length === 0) return only
  return 'Read / write permissions'
}

export const CLIENT_ID_DISPLAY_LENGTH = 20

/** The admin table shows at most 20 characters of a client id. */
export function truncateClientId(clientId: string): string {
  return clientId.length > CLIENT_ID_DISPLAY_LENGTH
    ? `${clientId.slice(0, CLIENT_ID_DISPLAY_LENGTH)}...`
    : clientId
}

/** The host of a URL for the admin table; the text itself if it is not a URL. */
export function urlHost(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}
