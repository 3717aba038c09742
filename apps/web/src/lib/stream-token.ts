import { apiRequest } from './api-client.ts'

/**
 * A short-lived JWT (5 minutes) for URLs that cannot carry the session cookie's weight safely,
 * such as an EventSource's `?token=`. Fetch a new one for every connection; never store it.
 */
export async function fetchStreamToken(): Promise<string> {
  const answer = await apiRequest<{ token?: unknown }>('/api/auth/token')
  if (typeof answer?.token !== 'string' || answer.token === '') {
    throw new Error('No authentication token found.')
  }
  return answer.token
}
