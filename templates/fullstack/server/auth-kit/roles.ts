/** The roles of an app's users, lowest first: an owner can do what an admin can, and more. */
export const appRoles = ['member', 'admin', 'owner'] as const

export type AppRole = (typeof appRoles)[number]

/** Whether `role` is at least `needed` (owner > admin > member). */
export function hasAppRole(role: AppRole, needed: AppRole): boolean {
  return appRoles.indexOf(role) >= appRoles.indexOf(needed)
}

export function toAppRole(value: unknown): AppRole {
  return appRoles.find((role) => role === value) ?? 'member'
}
