import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import { PageContainer } from '../components/layout/page-container.tsx'
import { PageHeader } from '../components/layout/page-header.tsx'
import { Alert } from '../components/ui/alert.tsx'
import { Badge } from '../components/ui/badge.tsx'
import { Button } from '../components/ui/button.tsx'
import { PlusIcon } from '../components/ui/icons.tsx'
import { ApplicationsList } from '../features/applications/applications-list.tsx'
import { CreateApplicationDialog } from '../features/applications/create-application-dialog.tsx'
import { ExploreIdeaButton } from '../features/explore/explore-idea-button.tsx'
import { ModelSelector } from '../features/models/model-selector.tsx'
import { useModels } from '../features/models/use-models.ts'
import { useSelectedModel } from '../features/models/use-selected-model.ts'
import { useOrganization } from '../features/organizations/use-organization.ts'

/** `?create=1&description=…&name=…` opens the create dialog prefilled (e.g. from an exploration). */
type HomeSearch = { create?: 1; name?: string; description?: string }

// The router parses query values as JSON, so `?name=2048` arrives as a number.
const textParam = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : undefined

export const Route = createFileRoute('/_authenticated/_organization/')({
  validateSearch: (search: Record<string, unknown>): HomeSearch => ({
    create: ['1', 'true'].includes(textParam(search.create) ?? '') ? 1 : undefined,
    name: textParam(search.name),
    description: textParam(search.description),
  }),
  component: HomePage,
})

function HomePage() {
  const organization = useOrganization()
  const models = useModels()
  const [model, setModel] = useSelectedModel(models.data)
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  const [createOpen, setCreateOpen] = useState(false)

  const openCreate = () => setCreateOpen(true)
  const closeCreate = () => {
    setCreateOpen(false)
    if (search.create || search.name || search.description) {
      void navigate({ search: {}, replace: true })
    }
  }

  return (
    <PageContainer>
      <PageHeader
        title="Applications"
        subtitle="Manage and preview your applications"
        badge={<Badge tone="accent">{organization.name}</Badge>}
        actions={
          <>
            <ExploreIdeaButton model={model} />
            <Button onClick={openCreate}>
              <PlusIcon />
              Create Application
            </Button>
          </>
        }
      />
      {models.isError && (
        <div className="mb-6">
          <Alert>{models.error.message}</Alert>
        </div>
      )}
      <ApplicationsList
        organizationId={organization.organizationId}
        emptyAction={
          <Button variant="secondary" onClick={openCreate}>
            Create your first application
          </Button>
        }
      />
      <CreateApplicationDialog
        open={createOpen || search.create === 1}
        onClose={closeCreate}
        onCreated={(id) => void navigate({ to: '/applications/$id/edit', params: { id } })}
        model={model}
        modelSelector={
          <ModelSelector
            models={models.data ?? []}
            value={model}
            onChange={setModel}
            disabled={!models.data}
            align="end"
            placement="above"
          />
        }
        initialName={search.name}
        initialDescription={search.description}
      />
    </PageContainer>
  )
}
