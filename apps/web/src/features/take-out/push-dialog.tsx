import type { PushResult } from '@sprout/protocol/api/versions.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Dialog } from '../../components/ui/dialog.tsx'
import { inputClasses, TextField } from '../../components/ui/text-field.tsx'
import {
  connectedIntegrations,
  gitRemoteQueryKey,
  pushToGit,
  readGitRemote,
  saveGitRemote,
} from './take-out-api.ts'

type PushDialogProps = { applicationId: string; open: boolean; onClose: () => void }

/**
 * docs/product/versions.md "Push to Git": the remote, its branch and a write-only token (or a
 * connected integration's, e.g. GitHub's), then 'Save and push'; the result names the commit
 * pushed, a refusal says why.
 */
export function PushDialog({ applicationId, open, onClose }: PushDialogProps) {
  const queryClient = useQueryClient()
  const remote = useQuery({
    queryKey: gitRemoteQueryKey(applicationId),
    queryFn: () => readGitRemote(applicationId),
    enabled: open,
  })
  const [url, setUrl] = useState('')
  const [branch, setBranch] = useState('main')
  const [token, setToken] = useState('')
  // '' is the token field; otherwise the integration whose connection pushes.
  const [integration, setIntegration] = useState('')
  const integrations = useQuery({
    queryKey: ['integrations', 'connected'],
    queryFn: connectedIntegrations,
    enabled: open,
  })
  useEffect(() => {
    if (!remote.data) return
    setUrl(remote.data.url)
    setBranch(remote.data.branch)
    setIntegration(remote.data.integration ?? '')
  }, [remote.data])
  const connected = integrations.data ?? []
  const push = useMutation({
    mutationFn: async (): Promise<PushResult> => {
      await saveGitRemote(applicationId, {
        url,
        branch,
        integration: integration || null,
        ...(token && !integration ? { token } : {}),
      })
      setToken('')
      await queryClient.invalidateQueries({ queryKey: gitRemoteQueryKey(applicationId) })
      return pushToGit(applicationId)
    },
  })
  return (
    <Dialog
      open={open}
      title="Push to Git"
      description="Sprout pushes the app's history to a branch of your repository. It never force-pushes."
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button onClick={() => push.mutate()} disabled={push.isPending || !url}>
            {push.isPending ? 'Pushing…' : 'Save and push'}
          </Button>
        </>
      }
    >
      <form
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault()
          push.mutate()
        }}
      >
        <TextField
          label="Remote URL"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          placeholder="https://github.com/you/app.git"
        />
        <TextField
          label="Branch"
          value={branch}
          onChange={(event) => setBranch(event.target.value)}
        />
        {(connected.length > 0 || integration) && (
          <label className="flex flex-col gap-1.5 text-sm font-medium text-zinc-700">
            Sign in with
            <select
              className={inputClasses}
              value={integration}
              onChange={(event) => setIntegration(event.target.value)}
            >
              <option value="">A token</option>
              {connected.map((item) => (
                <option key={item.service_name} value={item.service_name}>
                  {`The ${item.display_name} connection`}
                </option>
              ))}
              {integration && !connected.some((item) => item.service_name === integration) && (
                <option
                  value={integration}
                >{`The ${integration} connection (not connected)`}</option>
              )}
            </select>
          </label>
        )}
        {!integration && (
          <TextField
            label="Token"
            type="password"
            autoComplete="off"
            value={token}
            onChange={(event) => setToken(event.target.value)}
            placeholder={remote.data?.hasToken ? 'Unchanged' : ''}
          />
        )}
        {push.isError && <Alert>{push.error.message}</Alert>}
        {push.isSuccess && (
          <p role="status" className="text-sm text-emerald-700">
            {`Pushed ${push.data.commitId.slice(0, 7)} to ${push.data.branch}.`}
          </p>
        )}
      </form>
    </Dialog>
  )
}
