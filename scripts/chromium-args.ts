/**
 * The machine's Chromium as the browser tests and agent-eval launch it (never downloaded): what
 * these machines need, and nothing of Google's services (docs/product/agent-eval.md).
 */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
