import type { Model } from '@sprout/protocol/models.ts'
import type { KeyboardEvent, RefObject } from 'react'
import { classNames } from '../../lib/class-names.ts'
import type { ModelGroup } from './group-models.ts'
import { ModelDetails } from './model-details.tsx'
import { ModelOptionGroup } from './model-option-group.tsx'

type ModelSelectorPopupProps = {
  listbox: {
    idPrefix: string
    optionId: (modelId: string) => string
    listRef: RefObject<HTMLDivElement | null>
    activeId: string | undefined
    setActiveId: (modelId: string) => void
    groups: ModelGroup[]
    detailModel: Model | undefined
    choose: (model: Model) => void
    onListKeyDown: (event: KeyboardEvent<HTMLDivElement>) => void
  }
  value: string | undefined
  align: 'start' | 'end'
  placement: 'below' | 'above'
}

/** The selector's popup: the models grouped by provider, and the active model's details. */
export function ModelSelectorPopup({ listbox, value, align, placement }: ModelSelectorPopupProps) {
  const { idPrefix, optionId, activeId, groups, detailModel } = listbox
  return (
    <div
      data-testid="model-selector-popup"
      className={classNames(
        'z-40 flex flex-col overflow-hidden rounded-2xl border border-zinc-200 bg-white shadow-xl sm:flex-row',
        'max-sm:fixed max-sm:inset-x-4 max-sm:top-16 max-sm:max-h-[calc(100vh-5rem)]',
        'sm:absolute sm:w-[38rem]',
        align === 'end' ? 'sm:right-0' : 'sm:left-0',
        placement === 'below' ? 'sm:top-full sm:mt-2' : 'sm:bottom-full sm:mb-2',
      )}
    >
      <div
        ref={listbox.listRef}
        role="listbox"
        aria-label="Models"
        tabIndex={-1}
        aria-activedescendant={activeId ? optionId(activeId) : undefined}
        onKeyDown={listbox.onListKeyDown}
        className="max-h-80 overflow-y-auto p-2 outline-none sm:w-1/2 sm:border-r sm:border-zinc-100"
      >
        {groups.length === 0 && (
          <p className="px-2 py-6 text-center text-sm text-zinc-500">No models available</p>
        )}
        {groups.map((group) => (
          <ModelOptionGroup
            key={group.provider}
            group={group}
            idPrefix={idPrefix}
            optionId={optionId}
            value={value}
            activeId={activeId}
            onActivate={listbox.setActiveId}
            onChoose={listbox.choose}
          />
        ))}
      </div>
      {detailModel && (
        <div className="border-t border-zinc-100 p-4 sm:w-1/2 sm:border-t-0">
          <ModelDetails model={detailModel} />
        </div>
      )}
    </div>
  )
}
