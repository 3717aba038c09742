import { type Model, modelListSchema } from '@sprout/protocol/models.ts'
import { useQuery } from '@tanstack/react-query'
import { apiRequest } from '../../lib/api-client.ts'

export const modelsQueryOptions = {
  queryKey: ['models'] as const,
  queryFn: async (): Promise<Model[]> => modelListSchema.parse(await apiRequest('/api/models')),
  staleTime: 5 * 60_000,
}

/** The models the server offers, each saying whether it can run right now. */
export function useModels() {
  return useQuery(modelsQueryOptions)
}
