import type { AccountDeletion } from '@sprout/protocol/api/account.ts'

const names = (entries: { name: string }[]) => entries.map((entry) => entry.name).join(', ')
const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`

/** Exactly what deleting the account removes (docs/product/auth.md "Account"). */
export function DeletionSummary({ email, plan }: { email: string; plan: AccountDeletion }) {
  return (
    <div className="flex flex-col gap-2 text-sm text-zinc-700">
      <p>This deletes:</p>
      <ul aria-label="What will be deleted" className="list-disc space-y-1 pl-5">
        <li>Your account {email} and all its sessions</li>
        <li>
          {plan.applications.length === 0
            ? 'No applications'
            : `Applications: ${names(plan.applications)}`}
        </li>
        <li>
          {plural(plan.conversations, 'builder conversation', 'builder conversations')} and{' '}
          {plural(plan.explorations, 'exploration', 'explorations')}
        </li>
        <li>Organizations only you belong to: {names(plan.deletedOrganizations)}</li>
        {plan.leftOrganizations.length > 0 && <li>You leave: {names(plan.leftOrganizations)}</li>}
      </ul>
    </div>
  )
}

/** Why the account cannot be deleted yet. */
export function DeletionBlocked({ plan }: { plan: AccountDeletion }) {
  return (
    <div className="flex flex-col gap-2 text-sm text-zinc-700">
      <p>You are the only owner of these organizations, which other members still use:</p>
      <ul aria-label="Organizations that block deletion" className="list-disc space-y-1 pl-5">
        {plan.blockingOrganizations.map((organization) => (
          <li key={organization.id}>{organization.name}</li>
        ))}
      </ul>
      <p>Invite another owner, or ask the other members to leave, before deleting your account.</p>
    </div>
  )
}
