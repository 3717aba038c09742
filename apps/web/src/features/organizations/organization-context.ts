import { createContext } from 'react'
import type { ResolvedOrganization } from './organization-types.ts'

export const OrganizationContext = createContext<ResolvedOrganization | undefined>(undefined)
