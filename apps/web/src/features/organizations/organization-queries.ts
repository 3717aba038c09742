import { queryOptions } from '@tanstack/react-query'
import { apiRequest } from '../../lib/api-client.ts'
import { ApiError } from '../../lib/api-error.ts'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import type { OrganizationSelection } from './organization-selection.ts'
import type { OrganizationSummary, ResolvedOrganization } from './organization-types.ts'

export function organizationListQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['organizations', userId],
    queryFn: async () => {
      const organizations = await unwrapAuthResult(authClient.organization.list())
      return (organizations ?? []) as OrganizationSummary[]
    },
  })
}

/**
 * Looks up Sprout's id; a failure reads `{failure}: {status}` (docs/product/error-texts.md "Generic").
 */
async function lookupOrganizationId(query: string, failure: string): Promise<string> {
  try {
    const result = await apiRequest<{ id: string }>(`/api/organizations?${query}`, {
      organizationId: null,
    })
    return result.id
  } catch (error) {
    if (error instanceof ApiError && error.status > 0 && error.status !== 401) {
      throw new ApiError(`${failure}: ${error.status}`, error.status)
    }
    throw error
  }
}

export function resolvedOrganizationQueryOptions(
  selection: Exclude<OrganizationSelection, { kind: 'unselected' }>,
  userId: string,
) {
  const key = selection.kind === 'personal' ? 'personal' : selection.externalOrganizationId
  return queryOptions({
    queryKey: ['organization', userId, key],
    queryFn: async (): Promise<ResolvedOrganization> => {
      if (selection.kind === 'personal') {
        const organizationId = await lookupOrganizationId(
          'is_personal=true',
          'Failed to fetch personal organization',
        )
        return {
          organizationId,
          externalOrganizationId: organizationId,
          isPersonal: true,
          name: 'Personal',
        }
      }
      const externalOrganizationId = selection.externalOrganizationId
      const [organizationId, organizations] = await Promise.all([
        lookupOrganizationId(
          `clerk_id=${encodeURIComponent(externalOrganizationId)}`,
          'Failed to fetch organization',
        ),
        unwrapAuthResult(authClient.organization.list()) as Promise<OrganizationSummary[] | null>,
      ])
      const summary = organizations?.find((candidate) => candidate.id === externalOrganizationId)
      const isPersonal = summary?.isPersonal === true
      return {
        organizationId,
        externalOrganizationId,
        isPersonal,
        name: isPersonal ? 'Personal' : (summary?.name ?? 'Organization'),
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
  })
}
