import { USER_NAME_MAX } from '@sprout/protocol/api/auth.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { TextField } from '../../components/ui/text-field.tsx'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import { sessionQueryKey } from '../../lib/session-query.ts'
import { accountQueryKey } from './account-queries.ts'
import { AccountSection } from './account-section.tsx'

export function ProfileSection({ name }: { name: string }) {
  const queryClient = useQueryClient()
  const [draft, setDraft] = useState(name)
  const save = useMutation({
    mutationFn: (nextName: string) => unwrapAuthResult(authClient.updateUser({ name: nextName })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accountQueryKey })
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey })
    },
  })
  const trimmed = draft.trim()
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (trimmed) save.mutate(trimmed)
  }
  return (
    <AccountSection title="Profile">
      <form onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <TextField
          label="Name"
          name="name"
          autoComplete="name"
          value={draft}
          onChange={(event) => {
            setDraft(event.target.value)
            save.reset()
          }}
          maxLength={USER_NAME_MAX}
          className="flex-1"
          required
        />
        <Button type="submit" disabled={save.isPending || !trimmed || trimmed === name}>
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
      </form>
      {save.isSuccess && (
        <div className="mt-3">
          <Alert tone="success">Your name was saved.</Alert>
        </div>
      )}
      {save.error && (
        <div className="mt-3">
          <Alert>{save.error.message}</Alert>
        </div>
      )}
    </AccountSection>
  )
}
