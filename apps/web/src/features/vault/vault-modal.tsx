import type { VaultEntry } from '@sprout/protocol/api/vault.ts'
import { useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Dialog } from '../../components/ui/dialog.tsx'
import { iconButtonClasses } from '../../components/ui/icon-button.tsx'
import { PlusIcon, TrashIcon } from '../../components/ui/icons.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { vaultErrorMessage } from '../../lib/vault-api.ts'
import { AddSecretRow } from './add-secret-row.tsx'
import { useVault } from './use-vault.ts'
import { DELETE_SECRET_FAILED, loadErrorMessage } from './vault-errors.ts'

type VaultModalProps = { applicationId: string; open: boolean; onClose: () => void }

/**
 * docs/product/vault.md "Vault modal": the application's secrets by key, values masked (they are
 * never sent back), an 'Add Secret' row, and delete after a confirmation.
 */
export function VaultModal({ applicationId, open, onClose }: VaultModalProps) {
  const { keys, add, remove } = useVault(applicationId, open)
  const [adding, setAdding] = useState(false)
  const [deleting, setDeleting] = useState<string>()
  const [deleteError, setDeleteError] = useState<string>()

  const confirmDelete = (key: string) => {
    setDeleteError(undefined)
    remove.mutate(key, {
      onSuccess: () => setDeleting(undefined),
      onError: (error) => setDeleteError(vaultErrorMessage(error, DELETE_SECRET_FAILED)),
    })
  }

  return (
    <Dialog
      open={open}
      size="lg"
      title="Vault Secrets"
      description="Your app's server reads these as environment variables. Values are never shown again after saving."
      onClose={add.isPending || remove.isPending ? undefined : onClose}
      footer={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      <div className="flex flex-col gap-4">
        {keys.isPending ? (
          <div className="flex items-center gap-2 text-sm text-zinc-500">
            <Spinner className="size-4" /> Loading secrets...
          </div>
        ) : keys.isError ? (
          <Alert>
            <div className="flex items-center justify-between gap-3">
              <span>{loadErrorMessage(keys.error)}</span>
              <Button variant="secondary" size="sm" onClick={() => void keys.refetch()}>
                Try again
              </Button>
            </div>
          </Alert>
        ) : (
          <SecretTable entries={keys.data} onDelete={(key) => setDeleting(key)} />
        )}
        {deleting !== undefined && (
          <div
            role="alertdialog"
            aria-label="Delete secret"
            className="rounded-xl border border-red-200 bg-red-50 p-3 text-sm"
          >
            <p className="text-zinc-800">{`Are you sure you want to delete the secret "${deleting}"?`}</p>
            {deleteError && <p className="mt-1 text-xs text-red-600">{deleteError}</p>}
            <div className="mt-3 flex justify-end gap-2">
              <Button
                variant="secondary"
                size="sm"
                onClick={() => setDeleting(undefined)}
                disabled={remove.isPending}
              >
                Cancel
              </Button>
              <Button
                variant="danger"
                size="sm"
                onClick={() => confirmDelete(deleting)}
                disabled={remove.isPending}
              >
                {remove.isPending ? 'Deleting...' : 'Delete'}
              </Button>
            </div>
          </div>
        )}
        {adding ? (
          <AddSecretRow
            saving={add.isPending}
            onSet={async (key, value) => {
              await add.mutateAsync({ key, value })
              setAdding(false)
            }}
            onCancel={() => setAdding(false)}
          />
        ) : (
          <div>
            <Button variant="secondary" size="sm" onClick={() => setAdding(true)}>
              <PlusIcon /> Add Secret
            </Button>
          </div>
        )}
      </div>
    </Dialog>
  )
}

function SecretTable({
  entries,
  onDelete,
}: {
  entries: VaultEntry[]
  onDelete: (key: string) => void
}) {
  return (
    <table className="w-full table-fixed text-left text-sm">
      <thead className="border-b border-zinc-200 text-xs text-zinc-500">
        <tr>
          <th className="w-1/2 py-2 font-medium">Key</th>
          <th className="py-2 font-medium">Value</th>
          <th className="w-10 py-2">
            <span className="sr-only">Delete</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {entries.length === 0 ? (
          <tr>
            <td colSpan={3} className="py-6 text-center text-zinc-500">
              No secrets found in vault
            </td>
          </tr>
        ) : (
          entries.map((entry) => (
            <tr key={entry.key} className="border-b border-zinc-100">
              <td className="truncate py-2 font-mono text-xs text-zinc-800" title={entry.key}>
                {entry.key}
              </td>
              <td
                className="py-2 font-mono text-xs tracking-widest text-zinc-400"
                aria-label="Hidden value"
              >
                ••••••••
              </td>
              <td className="py-1 text-right">
                <button
                  type="button"
                  aria-label={`Delete secret ${entry.key}`}
                  title="Delete"
                  onClick={() => onDelete(entry.key)}
                  className={iconButtonClasses}
                >
                  <TrashIcon />
                </button>
              </td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  )
}
