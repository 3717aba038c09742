import { useQuery } from '@tanstack/react-query'
import { modelsQueryOptions } from '../../lib/models-query.ts'

/** The models the server offers, each saying whether it can run right now. */
export function useModels() {
  return useQuery(modelsQueryOptions)
}
