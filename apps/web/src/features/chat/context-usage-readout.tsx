import {
  formatContextPercentage,
  formatContextUsage,
  isContextWarning,
} from '@sprout/protocol/stream/context-usage.ts'
import type { TokenUsage } from '@sprout/protocol/stream/stream-chunk.ts'
import { classNames } from '../../lib/class-names.ts'

/** 'Context: used / limit (N%)', the percentage in the warning colour above 80 %. */
export function ContextUsageReadout({ usage }: { usage: TokenUsage | null }) {
  if (!usage) return null
  const warning = isContextWarning(usage)
  return (
    <span
      data-testid="context-usage"
      data-warning={warning}
      title={`${usage.percentage}% of the model's context window`}
      className="truncate text-xs tabular-nums text-zinc-500"
    >
      {formatContextUsage(usage)}{' '}
      <span
        data-testid="context-percentage"
        className={classNames(warning && 'font-medium text-amber-700')}
      >
        {formatContextPercentage(usage)}
      </span>
    </span>
  )
}
