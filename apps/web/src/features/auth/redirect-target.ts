/** Only same-site paths are followed after sign-in, never another origin. */
export function safeRedirectTarget(target: unknown): string | undefined {
  if (typeof target !== 'string') return undefined
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\'))
    return undefined
  if (target.startsWith('/signin') || target.startsWith('/signup')) return undefined
  return target
}
