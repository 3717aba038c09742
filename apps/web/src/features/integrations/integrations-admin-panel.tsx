import type {
  AdminIntegration,
  IntegrationDefinitionInput,
} from '@sprout/protocol/api/integrations.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { PlusIcon } from '../../components/ui/icons.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import {
  adminIntegrationsQueryKey,
  integrationsQueryKey,
  listAdminIntegrations,
  listIntegrationPresets,
  saveAdminIntegration,
} from './integration-api.ts'
import { truncateClientId, urlHost } from './integration-display.ts'
import { IntegrationFormDialog } from './integration-form-dialog.tsx'

type FormState = { mode: 'create' } | { mode: 'edit'; integration: AdminIntegration }

const columns = ['Service Name', 'Client ID', 'Auth URL', 'Token URL', 'Scopes']

/** docs/product/admin.md "Integrations tab": the integration definitions, added and edited. */
export function IntegrationsAdminPanel() {
  const queryClient = useQueryClient()
  const integrations = useQuery({
    queryKey: adminIntegrationsQueryKey,
    queryFn: listAdminIntegrations,
  })
  const presets = useQuery({
    queryKey: [...adminIntegrationsQueryKey, 'presets'],
    queryFn: listIntegrationPresets,
    staleTime: Number.POSITIVE_INFINITY,
  })
  const [form, setForm] = useState<FormState>()
  const save = useMutation({
    mutationFn: ({
      mode,
      request,
    }: {
      mode: FormState['mode']
      request: IntegrationDefinitionInput
    }) => saveAdminIntegration(mode, request),
    onSuccess: () => {
      setForm(undefined)
      void queryClient.invalidateQueries({ queryKey: adminIntegrationsQueryKey })
      void queryClient.invalidateQueries({ queryKey: integrationsQueryKey })
    },
    onError: (error) => window.alert(`Failed to save integration: ${error.message}`),
  })

  return (
    <section aria-labelledby="integrations-admin-heading">
      <div className="mb-4 flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 id="integrations-admin-heading" className="text-lg font-semibold text-zinc-900">
            Integrations
          </h2>
          <p className="text-sm text-zinc-500">
            OAuth apps your users can connect to their organization in Settings.
          </p>
        </div>
        <Button size="sm" onClick={() => setForm({ mode: 'create' })}>
          <PlusIcon /> Add Integration
        </Button>
      </div>

      {integrations.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner className="size-6" />
        </div>
      ) : integrations.isError ? (
        <Alert>{integrations.error.message}</Alert>
      ) : (
        <section
          aria-label="Integration definitions"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard scrolls the table sideways on a narrow screen (axe "scrollable-region-focusable")
          tabIndex={0}
          className="overflow-x-auto rounded-2xl border border-zinc-200 bg-white shadow-sm"
        >
          <table className="w-full text-left text-sm">
            <thead className="border-b border-zinc-100 bg-zinc-50/60 text-xs text-zinc-500">
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col" className="px-4 py-2.5 font-medium">
                    {column}
                  </th>
                ))}
                <th scope="col" className="px-4 py-2.5">
                  <span className="sr-only">Edit</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {integrations.data.map((integration) => (
                <tr key={integration.service_name} aria-label={integration.service_name}>
                  <td className="px-4 py-3 font-medium text-zinc-900">
                    {integration.service_name}
                  </td>
                  <td
                    className="px-4 py-3 font-mono text-xs text-zinc-700"
                    title={integration.client_id}
                  >
                    {truncateClientId(integration.client_id)}
                  </td>
                  <td className="px-4 py-3 text-zinc-700">{urlHost(integration.auth_url)}</td>
                  <td className="px-4 py-3 text-zinc-700">{urlHost(integration.token_url)}</td>
                  <td className="px-4 py-3 text-xs text-zinc-600">
                    {integration.scopes.join(', ')}
                  </td>
                  <td className="px-4 py-3 text-right">
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => setForm({ mode: 'edit', integration })}
                    >
                      Edit
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {integrations.data.length === 0 && (
            <p className="px-4 py-6 text-center text-sm text-zinc-500">No integrations yet</p>
          )}
        </section>
      )}

      {form && (
        <IntegrationFormDialog
          editing={form.mode === 'edit' ? form.integration : undefined}
          presets={presets.data ?? []}
          saving={save.isPending}
          onSave={(request) => save.mutate({ mode: form.mode, request })}
          onClose={() => setForm(undefined)}
        />
      )}
    </section>
  )
}
