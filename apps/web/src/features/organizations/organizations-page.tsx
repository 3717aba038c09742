import { useQuery } from '@tanstack/react-query'
import { PageContainer } from '../../components/layout/page-container.tsx'
import { PageHeader } from '../../components/layout/page-header.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { CenteredSpinner } from '../../components/ui/spinner.tsx'
import type { SessionUser } from '../../lib/session-query.ts'
import { CreateOrganizationForm } from './create-organization-form.tsx'
import { OrganizationCard } from './organization-card.tsx'
import { OrganizationManagePanel } from './organization-manage-panel.tsx'
import { organizationListQueryOptions } from './organization-queries.ts'
import type { OrganizationSelection } from './organization-selection.ts'
import { useOrganizationSelection } from './use-organization-selection.ts'
import { useSwitchOrganization } from './use-switch-organization.ts'

type OrganizationsPageProps = {
  user: SessionUser
  /** The organization whose members panel is open. */
  managedOrganizationId: string | undefined
  onManage: (organizationId: string | undefined) => void
  /** Where to go once the user has chosen. */
  redirectTo: string | undefined
}

function isCurrent(
  selection: OrganizationSelection | undefined,
  organization: { id: string; isPersonal: boolean },
) {
  if (!selection) return false
  if (selection.kind === 'organization') return selection.externalOrganizationId === organization.id
  return selection.kind === 'personal' && organization.isPersonal
}

export function OrganizationsPage({
  user,
  managedOrganizationId,
  onManage,
  redirectTo,
}: OrganizationsPageProps) {
  const selection = useOrganizationSelection()
  const organizations = useQuery(organizationListQueryOptions(user.id))
  const switchOrganization = useSwitchOrganization()

  if (organizations.isPending) return <CenteredSpinner label="Loading organizations..." />

  const list = organizations.data ?? []
  const personal = list.find((organization) => organization.isPersonal === true)
  const teams = list
    .filter((organization) => organization.isPersonal !== true)
    .sort((first, second) => first.name.localeCompare(second.name))
  const cards = [
    { id: personal?.id ?? 'personal', name: 'Personal', isPersonal: true },
    ...teams.map((team) => ({ id: team.id, name: team.name, isPersonal: false })),
  ]
  const managed = teams.find((team) => team.id === managedOrganizationId)

  return (
    <PageContainer narrow>
      <PageHeader
        title="Organizations"
        subtitle="Choose where you work: on your own, or with a team."
      />
      <div className="flex flex-col gap-6">
        {selection?.kind === 'unselected' && (
          <Alert tone="info">
            Choose an organization to continue. Personal is just for you; you can switch at any time
            from the menu in the top right.
          </Alert>
        )}
        {organizations.isError && <Alert>{organizations.error.message}</Alert>}
        {switchOrganization.error && <Alert>{switchOrganization.error.message}</Alert>}

        <ul aria-label="Your organizations" className="grid gap-3 sm:grid-cols-2">
          {cards.map((card) => (
            <OrganizationCard
              key={card.id}
              name={card.name}
              isPersonal={card.isPersonal}
              isCurrent={isCurrent(selection, card)}
              isManaged={card.id === managed?.id}
              isSwitching={switchOrganization.isPending}
              onSwitch={() =>
                switchOrganization.mutate({
                  target: card.isPersonal
                    ? { kind: 'personal' }
                    : { kind: 'organization', id: card.id },
                  redirectTo,
                })
              }
              onManage={
                card.isPersonal
                  ? undefined
                  : () => onManage(card.id === managed?.id ? undefined : card.id)
              }
            />
          ))}
        </ul>

        {managed && (
          <OrganizationManagePanel
            key={managed.id}
            organizationId={managed.id}
            name={managed.name}
            currentUserId={user.id}
            onClose={() => onManage(undefined)}
          />
        )}

        <CreateOrganizationForm onCreated={(id) => onManage(id)} />
      </div>
    </PageContainer>
  )
}
