import { useEffect, useState } from 'react'
import { filesChangedText } from './change-counts.tsx'
import { useVersions } from './use-versions.ts'

type RunChangesLinkProps = {
  applicationId: string
  runId: string
  /** Opens the version's diff in the History panel. */
  onOpen: (versionId: string) => void
}

/**
 * docs/product/versions.md "Diffs": after each run that made a version, '3 files changed' opens
 * that run's diff. The list may have been read as the answer ended, before the run's version was
 * recorded: until it is found the list is read again for a while (useVersions).
 */
export function RunChangesLink({ applicationId, runId, onOpen }: RunChangesLinkProps) {
  const [shownAt] = useState(() => Date.now())
  const [found, setFound] = useState(false)
  const versions = useVersions(applicationId, found ? null : shownAt)
  const version = versions.data?.pages
    .flatMap((page) => page.versions)
    .find((candidate) => candidate.runId === runId && candidate.kind === 'run')
  useEffect(() => {
    if (version) setFound(true)
  }, [version])
  if (!version || version.files.length === 0) return null
  return (
    <p className="text-xs text-zinc-500">
      <button
        type="button"
        onClick={() => onOpen(version.id)}
        className="underline decoration-zinc-300 underline-offset-2 hover:text-zinc-900"
      >
        {filesChangedText(version.files.length)}
      </button>
    </p>
  )
}
