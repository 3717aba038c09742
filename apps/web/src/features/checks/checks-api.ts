import type {
  CheckReport,
  CheckSettingsResponse,
  LatestCheckResponse,
} from '@sprout/protocol/api/checks.ts'
import { apiRequest } from '../../lib/api-client.ts'

// docs/product/checks.md: the app's last check, a check on demand, and the organization's setting.

export const latestCheckQueryKey = (applicationId: string) =>
  ['applications', applicationId, 'checks', 'latest'] as const

export const checkSettingsQueryKey = (organizationId: string) =>
  ['organizations', organizationId, 'check-settings'] as const

export function fetchLatestCheck(applicationId: string): Promise<LatestCheckResponse> {
  return apiRequest<LatestCheckResponse>(
    `/api/applications/${encodeURIComponent(applicationId)}/checks/latest`,
  )
}

/** Answers with the finished check (up to a minute); 409 when one runs or the box is not ready. */
export function runCheck(applicationId: string): Promise<CheckReport> {
  return apiRequest<CheckReport>(`/api/applications/${encodeURIComponent(applicationId)}/checks`, {
    method: 'POST',
  })
}

export function fetchCheckSettings(organizationId: string): Promise<CheckSettingsResponse> {
  return apiRequest<CheckSettingsResponse>(
    `/api/organizations/${encodeURIComponent(organizationId)}/check-settings`,
  )
}

export function updateCheckSettings(
  organizationId: string,
  autoRepair: boolean,
): Promise<CheckSettingsResponse> {
  return apiRequest<CheckSettingsResponse>(
    `/api/organizations/${encodeURIComponent(organizationId)}/check-settings`,
    { method: 'PUT', body: { autoRepair } },
  )
}
