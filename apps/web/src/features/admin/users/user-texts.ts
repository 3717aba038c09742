import type { AdminUser } from '@sprout/protocol/api/admin-users.ts'

// The Users tab's words, as docs/product/admin.md "Users tab" has them.

export const userTexts = {
  searchLabel: 'Search users',
  searchPlaceholder: 'Search by name or email',
  sortLabel: 'Sort',
  sortNewest: 'Newest first',
  sortName: 'By name',
  loading: 'Loading users...',
  emptyTitle: 'No users found',
  emptyAll: 'Nobody has signed up yet.',
  emptySearch: 'Nobody matches this search.',
  never: 'Never',
  listedHint: 'Listed in ADMIN_EMAILS',
  banned: 'Banned',
  previous: 'Previous',
  next: 'Next',
  makeAdmin: 'Make admin',
  removeAdmin: 'Remove admin',
  ban: 'Ban...',
  unban: 'Unban',
  copyResetLink: 'Copy reset link',
  sendResetMail: 'Send reset mail',
  mailNotConfiguredHint: 'Mail is not configured (SMTP_URL): copy a reset link instead.',
  signOutEverywhere: 'Sign out everywhere',
  banTitle: 'Ban user',
  banDescription:
    'Their sessions end at once, their running agent runs stop, and signing in shows the reason.',
  reasonLabel: 'Reason',
  banConfirm: 'Ban',
  banBusy: 'Banning...',
} as const

export const columns = ['Name', 'Email', 'Role', 'Organizations', 'Created', 'Last seen'] as const

/** 'n–m of N', e.g. '51–100 of 10,000'. */
export const pageRange = (first: number, last: number, total: number) =>
  `${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`

export const actionsLabel = (user: AdminUser) => `Actions for ${user.email}`

/** The confirmations asked before an action, and what the tab says once it is done. */
export const confirmations = {
  'make-admin': (user: AdminUser) => ({
    title: 'Make admin?',
    message: `${user.name} will manage users, integrations and the devbox pool.`,
    confirm: 'Make admin',
    busy: 'Saving...',
  }),
  'remove-admin': (user: AdminUser) => ({
    title: 'Remove admin?',
    message: `${user.name} will no longer reach the admin panel.`,
    confirm: 'Remove admin',
    busy: 'Saving...',
  }),
  'sign-out': (user: AdminUser) => ({
    title: 'Sign out everywhere?',
    message: `${user.name} is signed out of every browser and app at once.`,
    confirm: 'Sign out',
    busy: 'Signing out...',
  }),
}

export const doneTexts = {
  'make-admin': (user: AdminUser) => `${user.name} is now an admin.`,
  'remove-admin': (user: AdminUser) => `${user.name} is no longer an admin.`,
  'sign-out': (user: AdminUser) => `${user.name} is signed out everywhere.`,
  ban: (user: AdminUser) => `${user.name} is banned.`,
  unban: (user: AdminUser) => `${user.name} is no longer banned.`,
  'reset-link': (user: AdminUser, copied: boolean) =>
    copied
      ? `Reset link for ${user.email} copied. It works once, for an hour.`
      : `Copy this reset link for ${user.email}. It works once, for an hour.`,
  'reset-mail': (user: AdminUser) => `Reset mail sent to ${user.email}.`,
}
