import { isSafeRedirectPath } from '@sprout/protocol/api/redirect-target.ts'

/** Only same-site paths are followed after sign-in, never another origin (the server's rule too). */
export function safeRedirectTarget(target: unknown): string | undefined {
  if (!isSafeRedirectPath(target)) return undefined
  if (target.startsWith('/signin') || target.startsWith('/signup')) return undefined
  return target
}
