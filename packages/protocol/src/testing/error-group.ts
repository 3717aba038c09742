/** TEST HELPER: an error group as the API lists it, a TypeError of a counter app's preview. */
import type { ErrorGroup } from '../api/error-monitoring.ts'

export function sampleErrorGroup(overrides: Partial<ErrorGroup> = {}): ErrorGroup {
  return {
    id: 'group-1',
    application_id: 'app-1',
    application_name: 'Counter',
    error_type: 'TypeError',
    representative_message: "Cannot read properties of undefined (reading 'length')",
    representative_stack: ['at showHistory (src/App.tsx:15:35)'],
    occurrence_count: 1,
    first_seen_at: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    last_seen_at: new Date(Date.now() - 5 * 60_000).toISOString(),
    status: 'active',
    source: 'browser',
    last_url: 'http://counter.preview.localhost/',
    ...overrides,
  }
}
