import type { SaveSingleSignOn, SingleSignOnView } from '@sprout/protocol/api/single-sign-on.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useEffect, useId, useState } from 'react'
import { Alert } from '../../../components/ui/alert.tsx'
import { Button } from '../../../components/ui/button.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { TextField } from '../../../components/ui/text-field.tsx'
import { apiRequest } from '../../../lib/api-client.ts'

// docs/product/admin.md "Access tab", "Single sign-on": word for word.
const sourceTexts: Record<SingleSignOnView['source'], string> = {
  environment:
    'Configured by the environment (OIDC_ISSUER). Saving here replaces it; removing the saved one brings it back.',
  admin: 'Configured here.',
  none: 'Not configured.',
}

const singleSignOnKey = ['admin', 'single-sign-on']
const emptyForm = { issuer: '', clientId: '', clientSecret: '', name: '' }

/** The installation's OpenID Connect sign-in: stored over OIDC_*, which stay the default. */
export function SingleSignOnSection() {
  const queryClient = useQueryClient()
  const current = useQuery({
    queryKey: singleSignOnKey,
    queryFn: () => apiRequest<SingleSignOnView>('/api/admin/single-sign-on'),
  })
  const [form, setForm] = useState(emptyForm)
  useEffect(() => {
    if (!current.data) return
    const { issuer, clientId, name } = current.data
    setForm({ issuer: issuer ?? '', clientId: clientId ?? '', clientSecret: '', name: name ?? '' })
  }, [current.data])
  const saved = async (view: SingleSignOnView) => {
    queryClient.setQueryData(singleSignOnKey, view)
    await queryClient.invalidateQueries({ queryKey: ['sign-in-options'] })
  }
  const save = useMutation({
    mutationFn: (body: SaveSingleSignOn) =>
      apiRequest<SingleSignOnView>('/api/admin/single-sign-on', { method: 'PUT', body }),
    onSuccess: saved,
  })
  const remove = useMutation({
    mutationFn: () =>
      apiRequest<SingleSignOnView>('/api/admin/single-sign-on', { method: 'DELETE' }),
    onSuccess: saved,
  })
  const field = (key: keyof typeof emptyForm) => ({
    value: form[key],
    onChange: (event: { target: { value: string } }) =>
      setForm((previous) => ({ ...previous, [key]: event.target.value })),
  })
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    remove.reset()
    save.mutate(form)
  }
  const hintIds = { secret: useId(), name: useId() }
  const view = current.data
  const failure = save.error ?? remove.error

  return (
    <section aria-labelledby="single-sign-on-heading" className="mb-10">
      <h2 id="single-sign-on-heading" className="text-lg font-semibold text-zinc-900">
        Single sign-on
      </h2>
      <p className="mb-4 text-sm text-zinc-500">
        People sign in with your identity provider (OpenID Connect); an account with the same
        confirmed email is linked.
      </p>
      {current.isPending ? (
        <Spinner />
      ) : current.isError || !view ? (
        <Alert>{current.error?.message}</Alert>
      ) : (
        <form onSubmit={onSubmit} className="flex max-w-xl flex-col gap-4">
          {failure && <Alert>{failure.message}</Alert>}
          {save.isSuccess && <Alert tone="success">Single sign-on saved.</Alert>}
          {remove.isSuccess && <Alert tone="success">Single sign-on removed.</Alert>}
          <p className="text-sm text-zinc-700" data-testid="single-sign-on-source">
            {sourceTexts[view.source]}
          </p>
          <CallbackUrlField url={view.callbackUrl} />
          <TextField
            label="Issuer"
            name="sso-issuer"
            placeholder="https://login.example.com"
            required
            {...field('issuer')}
          />
          <TextField label="Client ID" name="sso-client-id" required {...field('clientId')} />
          <TextField
            label="Client secret"
            name="sso-client-secret"
            type="password"
            autoComplete="off"
            aria-describedby={hintIds.secret}
            {...field('clientSecret')}
          />
          <p id={hintIds.secret} className="-mt-2 text-xs text-zinc-500">
            {view.source === 'admin' && view.hasSecret
              ? 'Leave blank to keep the current secret.'
              : 'Leave blank for a client without a secret.'}
          </p>
          <TextField
            label="Button name"
            name="sso-name"
            placeholder="Acme ID"
            required
            aria-describedby={hintIds.name}
            {...field('name')}
          />
          <p id={hintIds.name} className="-mt-2 text-xs text-zinc-500">
            The button reads 'Sign in with' and this name.
          </p>
          <div className="flex gap-2">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save single sign-on'}
            </Button>
            {view.source === 'admin' && (
              <Button
                type="button"
                variant="danger"
                disabled={remove.isPending}
                onClick={() => {
                  save.reset()
                  remove.mutate()
                }}
              >
                Remove
              </Button>
            )}
          </div>
        </form>
      )}
    </section>
  )
}

/** The redirect URI to register at the identity provider, with a copy button. */
function CallbackUrlField({ url }: { url: string }) {
  const [copied, setCopied] = useState(false)
  const hintId = useId()
  // Without a clipboard (plain http away from localhost) the read-only field is there to select.
  const copy = () =>
    navigator.clipboard
      ?.writeText(url)
      .then(() => setCopied(true))
      .catch(() => undefined)
  return (
    <>
      <div className="flex items-end gap-2">
        <TextField
          label="Callback URL"
          name="sso-callback-url"
          value={url}
          readOnly
          aria-describedby={hintId}
          className="flex-1"
        />
        <Button type="button" variant="secondary" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p id={hintId} className="-mt-2 text-xs text-zinc-500">
        Register this URL with your identity provider.
      </p>
    </>
  )
}
