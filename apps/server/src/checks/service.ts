// An app's check (docs/product/checks.md): what the chat layer and the composition root use.
export { endAbandonedChecks, latestCheck } from './check-store.ts'
export { type CheckContext, type CheckOptions, checksSettled, runCheck } from './run-check.ts'
