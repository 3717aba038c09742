/** DEVBOX_EGRESS: the public internet, only the npm registry, or nothing. */
export type EgressPolicy = 'open' | 'registry' | 'none'

export type EgressDecision =
  | { allowed: true; address: string; port: number }
  | { allowed: false; reason: string }
