import {
  type PreviewSelection,
  SELECTIONS_PER_MESSAGE,
} from '@sprout/protocol/api/preview-selections.ts'
import { useCallback, useMemo, useState } from 'react'

/** The elements pointed at in the preview for the draft (docs/product/builder.md "Select mode"). */
export type DraftSelections = {
  items: readonly PreviewSelection[]
  /** Adds one; the same element again is kept once, and past SELECTIONS_PER_MESSAGE the oldest goes. */
  add: (selection: PreviewSelection) => void
  remove: (index: number) => void
  /** They went with a message. */
  clear: () => void
  /** A send failed: they come back to the draft. */
  restore: (selections: readonly PreviewSelection[]) => void
}

const sameElement = (first: PreviewSelection, second: PreviewSelection) =>
  first.file === second.file && first.line === second.line && first.column === second.column

export function useDraftSelections(): DraftSelections {
  const [items, setItems] = useState<readonly PreviewSelection[]>([])
  const add = useCallback(
    (selection: PreviewSelection) =>
      setItems((current) =>
        [...current.filter((item) => !sameElement(item, selection)), selection].slice(
          -SELECTIONS_PER_MESSAGE,
        ),
      ),
    [],
  )
  const remove = useCallback(
    (index: number) => setItems((current) => current.filter((_, at) => at !== index)),
    [],
  )
  const clear = useCallback(() => setItems([]), [])
  const restore = useCallback((selections: readonly PreviewSelection[]) => setItems(selections), [])
  return useMemo(
    () => ({ items, add, remove, clear, restore }),
    [items, add, remove, clear, restore],
  )
}
