import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useRouter } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Dialog } from '../../components/ui/dialog.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { TextField } from '../../components/ui/text-field.tsx'
import { apiRequest } from '../../lib/api-client.ts'
import { setCurrentOrganizationId } from '../../lib/current-organization.ts'
import { forgetUserData, sessionQueryKey } from '../../lib/session-query.ts'
import { accountDeletionQueryOptions } from './account-queries.ts'
import { DeletionBlocked, DeletionSummary } from './deletion-summary.tsx'

type DeleteAccountDialogProps = { email: string; onClose: () => void }

/** Lists what goes, asks for the email typed out, then deletes and signs out. */
export function DeleteAccountDialog({ email, onClose }: DeleteAccountDialogProps) {
  const queryClient = useQueryClient()
  const router = useRouter()
  const plan = useQuery(accountDeletionQueryOptions)
  const [confirm, setConfirm] = useState('')
  const remove = useMutation({
    mutationFn: () =>
      apiRequest('/api/account', { method: 'DELETE', body: { confirm }, organizationId: null }),
    onSuccess: async () => {
      setCurrentOrganizationId(undefined)
      queryClient.setQueryData(sessionQueryKey, null)
      await router.navigate({ to: '/signin' })
      forgetUserData(queryClient)
    },
  })
  const matches = confirm.trim().toLowerCase() === email.toLowerCase()
  const blocked = (plan.data?.blockingOrganizations.length ?? 0) > 0
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (matches && !blocked && !remove.isPending) remove.mutate()
  }
  const formId = 'delete-account-form'
  return (
    <Dialog
      open
      title="Delete your account?"
      onClose={remove.isPending ? undefined : onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={remove.isPending}>
            {blocked ? 'Close' : 'Cancel'}
          </Button>
          {plan.data && !blocked && (
            <Button
              type="submit"
              form={formId}
              variant="danger"
              disabled={!matches || remove.isPending}
            >
              {remove.isPending ? 'Deleting...' : 'Delete account'}
            </Button>
          )}
        </>
      }
    >
      {plan.isPending && (
        <div role="status" className="flex items-center gap-2 text-sm text-zinc-500">
          <Spinner className="size-4" />
          Checking what would be deleted...
        </div>
      )}
      {plan.error && <Alert>{plan.error.message}</Alert>}
      {plan.data && blocked && <DeletionBlocked plan={plan.data} />}
      {plan.data && !blocked && (
        <form id={formId} onSubmit={onSubmit} className="flex flex-col gap-4">
          <DeletionSummary email={email} plan={plan.data} />
          <p className="text-sm font-medium text-red-700">This cannot be undone.</p>
          <TextField
            label={`Type ${email} to confirm`}
            name="confirmEmail"
            autoComplete="off"
            value={confirm}
            onChange={(event) => setConfirm(event.target.value)}
            data-autofocus
          />
          {remove.error && <Alert>{remove.error.message}</Alert>}
        </form>
      )}
    </Dialog>
  )
}
