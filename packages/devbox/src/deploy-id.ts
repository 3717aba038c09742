/** Deploy folder names sort by time: `2026-11-22T16-16-35-123Z-3f9a1c`. */
export const deployIdPattern = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[0-9a-f]{6}$/

const appIdPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/

export function createDeployId(now = new Date()): string {
  const random = crypto.getRandomValues(new Uint8Array(3))
  const suffix = Buffer.from(random).toString('hex')
  return `${now.toISOString().replaceAll(':', '-').replace('.', '-')}-${suffix}`
}

export function isValidAppId(appId: string): boolean {
  return appIdPattern.test(appId)
}
