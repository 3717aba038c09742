import type { Block } from '@sprout/protocol/stream/blocks-state.ts'
import { CheckReportView } from './check-report-view.tsx'
import { useCheckSettled } from './check-settled.ts'

/** The Checks block at the end of a run (docs/product/checks.md "Shown on the run"). */
export function ChecksBlock({ block }: { block: Block }) {
  useCheckSettled(block.checks?.state)
  if (!block.checks) return null
  return (
    <div data-testid="checks-block" data-check-id={block.checks.id}>
      <CheckReportView report={block.checks} />
    </div>
  )
}
