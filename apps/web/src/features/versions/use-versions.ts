import type { Version } from '@sprout/protocol/api/versions.ts'
import {
  useInfiniteQuery,
  useMutation,
  useMutationState,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import { getVersionDiff, listVersions, restoreVersion } from './versions-api.ts'

export const versionsQueryKey = (applicationId: string) => ['versions', applicationId] as const

/** How long after a run ends its version may still be on the way, and how often to look. */
export const RUN_VERSION_WAIT_MS = 15_000
const RUN_VERSION_POLL_MS = 2_000
/**
 * The open History panel reads the list again this often: a hand edit becomes its version 15 s
 * after the last Save, and a restore or run of another viewer comes with no event to say so.
 */
export const OPEN_PANEL_POLL_MS = 10_000

/**
 * The History panel's list: pages of versions, newest first ('Load more'). The chat sees a run end
 * at its answer's end, before the checkpoint is committed: from `runEndedAt` (a timestamp) the list
 * is read again every 2 s for 15 s, so the run's version shows up.
 */
export function useVersions(
  applicationId: string,
  runEndedAt: number | null = null,
  options: { panelOpen?: boolean } = {},
) {
  return useInfiniteQuery({
    queryKey: [...versionsQueryKey(applicationId), 'list'],
    queryFn: ({ pageParam }) => listVersions(applicationId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    refetchInterval: () => {
      if (runEndedAt !== null && Date.now() - runEndedAt < RUN_VERSION_WAIT_MS) {
        return RUN_VERSION_POLL_MS
      }
      return options.panelOpen ? OPEN_PANEL_POLL_MS : false
    },
  })
}

/** A version's diff; a version never changes, so it is read once. */
export function useVersionDiff(applicationId: string, versionId: string | null) {
  return useQuery({
    queryKey: [...versionsQueryKey(applicationId), 'diff', versionId],
    queryFn: () => getVersionDiff(applicationId, versionId ?? ''),
    enabled: versionId !== null,
    staleTime: Number.POSITIVE_INFINITY,
  })
}

/** What a restore was asked for: the version, and whether the preview's data goes back too. */
export type RestoreRequest = { version: Version; restoreData: boolean }

const restoreMutationKey = (applicationId: string) =>
  [...versionsQueryKey(applicationId), 'restore'] as const

/**
 * Restores a version; the list is read again to show the new version it made. Keyed, so a
 * History panel opened again while it runs still shows it (`usePendingRestores`).
 */
export function useRestoreVersion(applicationId: string, onRestored: (version: Version) => void) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationKey: restoreMutationKey(applicationId),
    mutationFn: ({ version, restoreData }: RestoreRequest) =>
      restoreVersion(applicationId, version.id, restoreData ? { restoreData } : {}),
    onSuccess: async ({ version }) => {
      await queryClient.invalidateQueries({
        queryKey: [...versionsQueryKey(applicationId), 'list'],
      })
      onRestored(version)
    },
  })
}

export type PendingRestore = RestoreRequest & { submittedAt: number }

/** The app's restores under way in this tab, the oldest first (a restore takes 10–20 s). */
export function usePendingRestores(applicationId: string): PendingRestore[] {
  return useMutationState({
    filters: { mutationKey: restoreMutationKey(applicationId), status: 'pending' },
    select: (mutation) => ({
      ...(mutation.state.variables as RestoreRequest),
      submittedAt: mutation.state.submittedAt,
    }),
  })
}
