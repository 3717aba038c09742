/**
 * better-auth sends its e-mails once a request's database work is committed, and only logs a
 * failure: a sign-up would say "check your email" for a mail never sent. The routes run each
 * auth request inside `catchMailFailures` and answer the failure instead.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

const failures = new AsyncLocalStorage<{ error?: Error }>()

export async function catchMailFailures<T>(
  run: () => Promise<T>,
): Promise<{ result: T; mailError: Error | undefined }> {
  const store: { error?: Error } = {}
  const result = await failures.run(store, run)
  return { result, mailError: store.error }
}

export function recordMailFailure(error: unknown) {
  const store = failures.getStore()
  if (store) store.error ??= error instanceof Error ? error : new Error(String(error))
}
