import { useState } from 'react'
import { filesChangedText } from './change-counts.tsx'
import { useVersions } from './use-versions.ts'

type RunChangesLinkProps = {
  applicationId: string
  conversationId: string | null
  /** The newest version when the last run started: not that run's, so not linked. */
  notVersionId?: string | null
  /** Opens the version's diff in the History panel. */
  onOpen: (versionId: string) => void
}

/**
 * docs/product/versions.md "Diffs": under a conversation whose run made the app's newest version,
 * '3 files changed' opens that run's diff.
 */
export function RunChangesLink({
  applicationId,
  conversationId,
  notVersionId,
  onOpen,
}: RunChangesLinkProps) {
  // Shown when a run ends: its version may still be being committed.
  const [shownAt] = useState(() => Date.now())
  const versions = useVersions(applicationId, shownAt)
  const newest = versions.data?.pages[0]?.versions[0]
  if (!conversationId || !newest || newest.kind !== 'run' || newest.id === notVersionId) return null
  if (newest.conversationId !== conversationId || newest.files.length === 0) return null
  return (
    <p className="text-xs text-zinc-500">
      <button
        type="button"
        onClick={() => onOpen(newest.id)}
        className="underline decoration-zinc-300 underline-offset-2 hover:text-zinc-900"
      >
        {filesChangedText(newest.files.length)}
      </button>
    </p>
  )
}
