import type { Model } from '@sprout/protocol/models.ts'
import { type ListMove, listIndexAfter } from '../../hooks/use-list-keyboard.ts'

/**
 * The available model a move lands on. With no available model active (none yet, or an
 * unavailable one under the pointer) a step goes to the nearest end.
 */
export function selectableAfter(
  selectable: Model[],
  activeId: string | undefined,
  move: ListMove,
): Model | undefined {
  if (selectable.length === 0) return undefined
  const index = selectable.findIndex((model) => model.model === activeId)
  if (index === -1 && typeof move === 'number') {
    return selectable[move > 0 ? 0 : selectable.length - 1]
  }
  return selectable[listIndexAfter(index, selectable.length, move)]
}
