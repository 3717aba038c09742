import type { Block } from '@sprout/protocol/stream/blocks-state.ts'
import {
  type BlockGroup,
  type Grouping,
  regroupBlocks,
} from '@sprout/protocol/stream/group-blocks.ts'
import { useMemo, useRef } from 'react'

// Groups per memoised slice: a delta re-renders one slice, whatever the conversation's length.
const sliceSize = 40

/**
 * The transcript's groups in slices of 40. Groups and slices that did not change are the same
 * objects as in the previous render, so a streamed delta allocates only the last group and
 * slice, and every other slice skips rendering on a pointer comparison.
 */
export function useGroupedSlices(
  blocks: readonly Block[],
  isRunning: boolean,
): { groups: BlockGroup[]; slices: BlockGroup[][] } {
  const previous = useRef<{ grouping: Grouping | undefined; slices: BlockGroup[][] }>({
    grouping: undefined,
    slices: [],
  })
  // A cache only: any previous grouping gives the same result, so a render React discards
  // after updating it does no harm.
  return useMemo(() => {
    const grouping = regroupBlocks(previous.current.grouping, blocks, isRunning)
    const slices = sliceGroups(grouping.groups, previous.current.slices)
    previous.current = { grouping, slices }
    return { groups: grouping.groups, slices }
  }, [blocks, isRunning])
}

function sliceGroups(groups: BlockGroup[], previous: BlockGroup[][]): BlockGroup[][] {
  const slices: BlockGroup[][] = []
  for (let start = 0; start < groups.length; start += sliceSize) {
    const end = Math.min(start + sliceSize, groups.length)
    const before = previous[slices.length]
    const unchanged =
      before?.length === end - start &&
      before.every((group, index) => group === groups[start + index])
    slices.push(unchanged && before ? before : groups.slice(start, end))
  }
  return slices
}
