import type { Model } from '@sprout/protocol/models.ts'
import { CheckIcon } from '../../components/ui/icons.tsx'
import { classNames } from '../../lib/class-names.ts'
import type { ModelGroup } from './group-models.ts'

type ModelOptionGroupProps = {
  group: ModelGroup
  idPrefix: string
  optionId: (modelId: string) => string
  value: string | undefined
  activeId: string | undefined
  onActivate: (modelId: string) => void
  onChoose: (model: Model) => void
}

/** One provider's models in the selector's listbox, under the provider's label. */
export function ModelOptionGroup({
  group,
  idPrefix,
  optionId,
  value,
  activeId,
  onActivate,
  onChoose,
}: ModelOptionGroupProps) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a listbox groups its options with role="group"
    <div role="group" aria-labelledby={`${idPrefix}-group-${group.provider}`}>
      <div
        id={`${idPrefix}-group-${group.provider}`}
        className="px-2 pt-2 pb-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase"
      >
        {group.label}
      </div>
      {group.models.map((model) => (
        // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox handles keys via aria-activedescendant
        <div
          key={model.model}
          id={optionId(model.model)}
          role="option"
          tabIndex={-1}
          aria-selected={model.model === value}
          aria-disabled={!model.available}
          onMouseEnter={() => onActivate(model.model)}
          onClick={() => onChoose(model)}
          className={classNames(
            'flex cursor-pointer flex-col rounded-lg px-2 py-1.5 text-sm',
            model.model === activeId && 'bg-zinc-100',
            !model.available && 'cursor-not-allowed opacity-60',
          )}
        >
          <span className="flex items-center gap-2">
            <span className="flex-1 truncate text-zinc-800">{model.name}</span>
            {model.model === value && <CheckIcon strokeWidth="2" className="text-accent-600" />}
          </span>
          {!model.available && model.unavailableReason && (
            <span className="text-xs text-zinc-500">{model.unavailableReason}</span>
          )}
        </div>
      ))}
    </div>
  )
}
