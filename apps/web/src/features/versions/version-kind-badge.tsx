import type { VersionKind } from '@sprout/protocol/api/versions.ts'
import { Badge } from '../../components/ui/badge.tsx'

/** docs/product/versions.md "History": what made the version. */
export const versionKindLabels: Record<VersionKind, string> = {
  run: 'Run',
  edit: 'Edited',
  restore: 'Restored',
  start: 'Start',
}

export function VersionKindBadge({ kind }: { kind: VersionKind }) {
  return <Badge tone={kind === 'restore' ? 'accent' : 'neutral'}>{versionKindLabels[kind]}</Badge>
}
