import { QueryClient } from '@tanstack/react-query'
import { ApiError } from './api-error.ts'

/** Client errors (4xx) are answers, not glitches: they are not retried. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (failureCount, error) => {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false
          return failureCount < 2
        },
      },
    },
  })
}
