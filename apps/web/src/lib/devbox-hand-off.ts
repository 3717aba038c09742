/**
 * docs/product/auth.md "Devbox auth": the product page that signs the browser in to a dev box's
 * preview.
 */
export const DEVBOX_AUTH_PATH = '/auth/devbox'

/**
 * The product URL that opens `returnPath` on a preview origin signed in: /auth/devbox gets a
 * single-use token and sends the browser on to the preview's auth callback.
 */
export function devboxHandOffPath(devboxUrl: string, returnPath = '/'): string {
  const search = new URLSearchParams({ devbox: devboxUrl, return: returnPath })
  return `${DEVBOX_AUTH_PATH}?${search}`
}
