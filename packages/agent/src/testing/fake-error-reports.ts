/** TEST HELPER: an application's error groups in memory, behind the tools' ErrorReportsAccess. */
import type { ErrorGroup } from '@sprout/protocol/api/error-monitoring.ts'
import { sampleErrorGroup } from '@sprout/protocol/testing/error-group.ts'
import type { ErrorReportsAccess } from '../tools/tool-context.ts'

/** A group of fixed times, so the tools' texts can be compared whole. */
export function errorGroup(overrides: Partial<ErrorGroup> = {}): ErrorGroup {
  return sampleErrorGroup({
    representative_stack: ['at onClick (src/App.tsx:9:32)', 'at HTMLButtonElement.callCallback'],
    occurrence_count: 3,
    first_seen_at: '2026-11-25T08:00:00.000Z',
    last_seen_at: '2026-11-25T08:55:00.000Z',
    ...overrides,
  })
}

export function fakeErrorReports(groups: ErrorGroup[]) {
  const comments: { groupId: string; comment?: string }[] = []
  const access: ErrorReportsAccess = {
    list: async (status, limit) =>
      groups
        .filter((group) => group.status === status)
        .sort((a, b) => b.last_seen_at.localeCompare(a.last_seen_at))
        .slice(0, limit),
    update: async (action, groupId, comment) => {
      const group = groups.find((candidate) => candidate.id === groupId)
      if (!group) throw new Error(`No error group ${groupId}`)
      if (action === 'resolve') group.status = 'resolved'
      if (action === 'suppress') group.status = 'ignored'
      comments.push({ groupId, comment })
      return group
    },
  }
  return { access, groups, comments }
}
