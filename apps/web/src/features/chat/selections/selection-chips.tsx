import {
  type PreviewSelection,
  selectionLocation,
} from '@sprout/protocol/api/preview-selections.ts'
import { CrossIcon, SelectElementIcon } from '../../../components/ui/icons.tsx'

/** `<button> src/App.tsx:14`, with the snippet as its tooltip. */
function SelectionLabel({ selection }: { selection: PreviewSelection }) {
  return (
    <span className="flex min-w-0 items-center gap-1" title={selection.snippet}>
      <SelectElementIcon className="size-3.5 text-accent-700" />
      <span className="font-medium text-zinc-800">&lt;{selection.tag}&gt;</span>
      <span className="truncate font-mono text-[11px] text-zinc-600">
        {selectionLocation(selection)}
      </span>
    </span>
  )
}

/** The draft's selections above the text, each with a remove button (docs/product/builder.md). */
export function SelectionChips({
  items,
  onRemove,
}: {
  items: readonly PreviewSelection[]
  onRemove: (index: number) => void
}) {
  if (items.length === 0) return null
  return (
    <ul aria-label="Selected elements to send" className="flex flex-wrap gap-1.5 px-1 pb-2">
      {items.map((selection, index) => (
        <li
          key={`${selectionLocation(selection)}:${selection.column ?? 0}`}
          data-testid="draft-selection"
          className="flex h-7 max-w-full items-center gap-1 rounded-lg border border-accent-200 bg-accent-50 pr-0.5 pl-2 text-xs"
        >
          <SelectionLabel selection={selection} />
          <button
            type="button"
            onClick={() => onRemove(index)}
            aria-label={`Remove selection ${selectionLocation(selection)}`}
            title="Remove selection"
            className="flex size-6 shrink-0 items-center justify-center rounded-md text-zinc-500 hover:bg-accent-100 hover:text-zinc-900"
          >
            <CrossIcon className="size-3.5" strokeWidth="2" />
          </button>
        </li>
      ))}
    </ul>
  )
}

/** A sent message's selections under its bubble. */
export function MessageSelections({ selections }: { selections: readonly PreviewSelection[] }) {
  return (
    <ul aria-label="Selected elements" className="flex max-w-[85%] flex-wrap justify-end gap-1.5">
      {selections.map((selection) => (
        <li
          key={`${selectionLocation(selection)}:${selection.column ?? 0}`}
          data-testid="message-selection"
          className="flex h-7 max-w-full items-center rounded-lg border border-zinc-200 bg-white px-2 text-xs"
        >
          <SelectionLabel selection={selection} />
        </li>
      ))}
    </ul>
  )
}
