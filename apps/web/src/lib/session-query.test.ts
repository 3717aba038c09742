import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { forgetUserData, sessionQueryKey } from './session-query.ts'
import { signInOptionsQueryKey } from './sign-in-options-query.ts'

describe('forgetUserData', () => {
  it("drops the user's data and keeps the session and the sign-in options", () => {
    const queryClient = new QueryClient()
    queryClient.setQueryData(sessionQueryKey, null)
    queryClient.setQueryData(signInOptionsQueryKey, { signUp: 'open' })
    queryClient.setQueryData(['applications', 'org-1'], [{ id: 'app-1' }])
    forgetUserData(queryClient)
    expect(
      queryClient
        .getQueryCache()
        .getAll()
        .map((query) => query.queryKey),
    ).toEqual([sessionQueryKey, signInOptionsQueryKey])
  })
})
