import { type Model, modelListSchema } from '@sprout/protocol/models.ts'
import { apiRequest } from './api-client.ts'

/** The models the server offers, each saying whether it can run right now (`GET /api/models`). */
export const modelsQueryOptions = {
  queryKey: ['models'] as const,
  queryFn: async (): Promise<Model[]> => modelListSchema.parse(await apiRequest('/api/models')),
  staleTime: 5 * 60_000,
}
