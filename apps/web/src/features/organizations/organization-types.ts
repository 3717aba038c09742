/** An organization as better-auth lists it, with Sprout's `isPersonal` field. */
export type OrganizationSummary = {
  id: string
  name: string
  slug: string
  isPersonal?: boolean | null
  createdAt: Date | string
}

/** The organization the user works in, as `useOrganization()` exposes it. */
export type ResolvedOrganization = {
  /** Sprout's internal id, sent as `Organization-ID`. */
  organizationId: string
  /**
   * better-auth's organization id (the same value today; kept apart,
   * docs/product/organizations.md).
   */
  externalOrganizationId: string
  isPersonal: boolean
  name: string
}
