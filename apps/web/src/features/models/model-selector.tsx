import { type Model, modelShortLabel } from '@sprout/protocol/models.ts'
import { ChevronDownIcon } from '../../components/ui/icons.tsx'
import { ModelSelectorPopup } from './model-selector-popup.tsx'
import { useModelListbox } from './use-model-listbox.ts'

type ModelSelectorProps = {
  models: Model[]
  /** The chosen model id (see useSelectedModel). */
  value: string | undefined
  onChange: (modelId: string) => void
  disabled?: boolean
  /** Which edge of the button the popup lines up with. */
  align?: 'start' | 'end'
  /** Open above the button, for pickers that sit at the bottom of the screen. */
  placement?: 'below' | 'above'
}

/**
 * docs/product/models.md "Model selector": a short-label button and a popup of models grouped by
 * provider.
 */
export function ModelSelector({
  models,
  value,
  onChange,
  disabled,
  align = 'end',
  placement = 'below',
}: ModelSelectorProps) {
  const listbox = useModelListbox({ models, value, onChange })
  return (
    <div ref={listbox.rootRef} className="relative inline-block">
      <button
        ref={listbox.buttonRef}
        type="button"
        title="Choose a model"
        aria-haspopup="listbox"
        aria-expanded={listbox.open}
        disabled={disabled}
        onClick={() => (listbox.open ? listbox.close(false) : listbox.openList())}
        onKeyDown={listbox.onButtonKeyDown}
        className="inline-flex h-10 items-center gap-2 rounded-xl border border-zinc-200 bg-white px-3 text-sm font-medium text-zinc-800 shadow-sm transition-colors hover:bg-zinc-50 disabled:cursor-not-allowed disabled:text-zinc-400"
      >
        <span aria-hidden="true" className="size-2 rounded-full bg-accent-500" />
        {modelShortLabel(value)}
        <ChevronDownIcon className="text-zinc-400" />
      </button>

      {listbox.open && (
        <ModelSelectorPopup listbox={listbox} value={value} align={align} placement={placement} />
      )}
    </div>
  )
}
