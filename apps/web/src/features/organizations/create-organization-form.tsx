import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card } from '../../components/ui/card.tsx'
import { TextField } from '../../components/ui/text-field.tsx'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'

/** better-auth needs a unique slug; users only ever see the name. */
function slugFor(name: string): string {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
  return `${base || 'organization'}-${crypto.randomUUID().slice(0, 8)}`
}

export function CreateOrganizationForm({ onCreated }: { onCreated: (id: string) => void }) {
  const queryClient = useQueryClient()
  const [name, setName] = useState('')
  const create = useMutation({
    mutationFn: async (organizationName: string) => {
      const organization = await unwrapAuthResult(
        authClient.organization.create({
          name: organizationName,
          slug: slugFor(organizationName),
          // Switching is the user's explicit choice, made from the list.
          keepCurrentActiveOrganization: true,
        }),
      )
      if (!organization) throw new Error('Failed to create organization')
      return organization
    },
    onSuccess: async (organization) => {
      setName('')
      await queryClient.invalidateQueries({ queryKey: ['organizations'] })
      onCreated(organization.id)
    },
  })

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const trimmed = name.trim()
    if (trimmed) create.mutate(trimmed)
  }

  return (
    <Card className="p-5">
      <h2 className="text-base font-semibold text-zinc-900">Create an organization</h2>
      <p className="mt-1 text-sm text-zinc-500">Work on applications together with your team.</p>
      <form onSubmit={onSubmit} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <TextField
          label="Organization name"
          name="organizationName"
          placeholder="Acme Inc."
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={80}
          className="flex-1"
          required
        />
        <Button type="submit" disabled={create.isPending || !name.trim()}>
          {create.isPending ? 'Creating...' : 'Create organization'}
        </Button>
      </form>
      {create.error && (
        <div className="mt-3">
          <Alert>{create.error.message}</Alert>
        </div>
      )}
    </Card>
  )
}
