const roleLabels: Record<string, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' }

/** "owner" → "Owner"; several roles ("admin,member") are listed together. */
export function roleLabel(role: string): string {
  return role
    .split(',')
    .map((part) => roleLabels[part.trim()] ?? part.trim())
    .join(', ')
}

export function canInvite(role: string | undefined): boolean {
  const roles = role?.split(',').map((part) => part.trim()) ?? []
  return roles.includes('owner') || roles.includes('admin')
}
