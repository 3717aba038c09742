import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { inputClasses, TextField } from '../../components/ui/text-field.tsx'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import { useSignInOptions } from '../../lib/sign-in-options-query.ts'
import { InvitationLink } from './invitation-link.tsx'

type InvitableRole = 'member' | 'admin'

export function InviteMemberForm({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient()
  const roleId = useId()
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<InvitableRole>('member')
  const mailConfigured = useSignInOptions().data?.mail === true
  const invite = useMutation({
    mutationFn: async (input: { email: string; role: InvitableRole }) => {
      const invitation = await unwrapAuthResult(
        authClient.organization.inviteMember({ ...input, organizationId }),
      )
      if (!invitation) throw new Error('Failed to create the invitation')
      return invitation
    },
    onSuccess: async () => {
      setEmail('')
      await queryClient.invalidateQueries({
        queryKey: ['organization-invitations', organizationId],
      })
    },
  })

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const trimmed = email.trim()
    if (trimmed) invite.mutate({ email: trimmed, role })
  }

  return (
    <div className="flex flex-col gap-3">
      <form onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <TextField
          label="Email"
          type="email"
          name="inviteEmail"
          placeholder="teammate@example.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          className="flex-1"
          required
        />
        <div className="flex flex-col gap-1.5">
          <label htmlFor={roleId} className="text-sm font-medium text-zinc-700">
            Role
          </label>
          <select
            id={roleId}
            value={role}
            onChange={(event) => setRole(event.target.value as InvitableRole)}
            className={`${inputClasses} sm:w-32`}
          >
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </select>
        </div>
        <Button type="submit" disabled={invite.isPending || !email.trim()}>
          {invite.isPending ? 'Inviting...' : 'Invite'}
        </Button>
      </form>
      {invite.error && <Alert>{invite.error.message}</Alert>}
      {invite.data && (
        <div className="rounded-xl border border-accent-200 bg-accent-50 p-3">
          <p className="mb-2 text-sm text-accent-700">
            {mailConfigured
              ? `Invitation mailed to ${invite.data.email}. You can also send them this link:`
              : `Invitation created for ${invite.data.email}. Send them this link:`}
          </p>
          <InvitationLink invitationId={invite.data.id} email={invite.data.email} />
        </div>
      )}
    </div>
  )
}
