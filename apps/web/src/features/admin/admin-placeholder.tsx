import { EmptyState } from '../../components/ui/empty-state.tsx'

/** A tab body that a later issue fills in. */
export function AdminPlaceholder({ title, description }: { title: string; description: string }) {
  return (
    <section aria-label={title}>
      <h2 className="mb-4 text-lg font-semibold text-zinc-900">{title}</h2>
      <EmptyState title="Coming soon" description={description} />
    </section>
  )
}
