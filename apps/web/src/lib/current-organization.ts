// The internal organization id that API calls send as `Organization-ID`. The organization route
// sets it before any screen inside it renders, so the first request already carries it.
let currentOrganizationId: string | undefined

export function getCurrentOrganizationId(): string | undefined {
  return currentOrganizationId
}

export function setCurrentOrganizationId(organizationId: string | undefined): void {
  currentOrganizationId = organizationId
}
