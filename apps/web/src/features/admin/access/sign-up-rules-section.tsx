import {
  SIGN_UP_MODES,
  type SignUpMode,
  type SignUpRulesBody,
} from '@sprout/protocol/api/access.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useEffect, useState } from 'react'
import { Alert } from '../../../components/ui/alert.tsx'
import { Button } from '../../../components/ui/button.tsx'
import { Spinner } from '../../../components/ui/spinner.tsx'
import { TextField } from '../../../components/ui/text-field.tsx'
import { apiRequest } from '../../../lib/api-client.ts'

// docs/product/admin.md "Access tab": word for word.
const modeLabels: Record<SignUpMode, { label: string; hint: string }> = {
  open: {
    label: 'Open',
    hint: 'Anybody may create an account (within the domains below, if any).',
  },
  invite: {
    label: 'By invitation',
    hint: 'Invited addresses, and addresses at the domains below, may create an account.',
  },
  closed: { label: 'Closed', hint: 'Only invited addresses may create an account.' },
}

const rulesKey = ['admin', 'sign-up-rules']

/** Who may create an account: stored over SIGNUP and SIGNUP_DOMAINS, which stay the default. */
export function SignUpRulesSection() {
  const queryClient = useQueryClient()
  const rules = useQuery({
    queryKey: rulesKey,
    queryFn: () => apiRequest<SignUpRulesBody>('/api/admin/sign-up-rules'),
  })
  const [mode, setMode] = useState<SignUpMode>('open')
  const [domains, setDomains] = useState('')
  useEffect(() => {
    if (!rules.data) return
    setMode(rules.data.mode)
    setDomains(rules.data.domains.join(', '))
  }, [rules.data])
  const save = useMutation({
    mutationFn: (body: SignUpRulesBody) =>
      apiRequest<SignUpRulesBody>('/api/admin/sign-up-rules', { method: 'PUT', body }),
    onSuccess: async (saved) => {
      queryClient.setQueryData(rulesKey, saved)
      await queryClient.invalidateQueries({ queryKey: ['sign-in-options'] })
    },
  })
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const list = domains
      .split(/[\s,]+/)
      .map((domain) => domain.trim())
      .filter((domain) => domain.length > 0)
    save.mutate({ mode, domains: list })
  }

  return (
    <section aria-labelledby="sign-up-rules-heading" className="mb-10">
      <h2 id="sign-up-rules-heading" className="text-lg font-semibold text-zinc-900">
        Sign-up rules
      </h2>
      <p className="mb-4 text-sm text-zinc-500">
        Who may create an account. Invited addresses always may.
      </p>
      {rules.isPending ? (
        <Spinner />
      ) : rules.isError ? (
        <Alert>{rules.error.message}</Alert>
      ) : (
        <form onSubmit={onSubmit} className="flex max-w-xl flex-col gap-4">
          {save.error && <Alert>{save.error.message}</Alert>}
          {save.isSuccess && !save.isPending && <Alert tone="success">Sign-up rules saved.</Alert>}
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-zinc-700">Sign-up</legend>
            {SIGN_UP_MODES.map((option) => (
              <label key={option} className="flex items-start gap-2 text-sm text-zinc-800">
                <input
                  type="radio"
                  name="sign-up-mode"
                  value={option}
                  checked={mode === option}
                  onChange={() => setMode(option)}
                  className="mt-1"
                />
                <span>
                  <span className="font-medium">{modeLabels[option].label}</span>
                  <span className="block text-zinc-500">{modeLabels[option].hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <TextField
            label="Email domains"
            name="sign-up-domains"
            placeholder="example.com, example.org"
            value={domains}
            onChange={(event) => setDomains(event.target.value)}
          />
          <div>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save sign-up rules'}
            </Button>
          </div>
        </form>
      )}
    </section>
  )
}
