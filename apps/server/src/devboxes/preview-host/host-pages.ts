import type { ServerResponse } from 'node:http'

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)

/** A minimal page of our own on a preview or apps host (no product assets are loaded there). */
export function sendHostPage(
  response: ServerResponse,
  status: number,
  page: {
    title: string
    message: string
    link?: { href: string; text: string }
    refreshSeconds?: number
  },
) {
  const refresh = page.refreshSeconds
    ? `<meta http-equiv="refresh" content="${page.refreshSeconds}">`
    : ''
  const link = page.link
    ? `<p><a href="${escapeHtml(page.link.href)}">${escapeHtml(page.link.text)}</a></p>`
    : ''
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">${refresh}<title>${escapeHtml(page.title)}</title><style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;color:#1f2937;margin:0}main{text-align:center;max-width:32rem;padding:2rem}h1{font-size:1.25rem}p{color:#4b5563}a{color:#16a34a}</style></head><body><main><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.message)}</p>${link}</main></body></html>`
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'x-content-type-options': 'nosniff',
  })
  response.end(html)
}
