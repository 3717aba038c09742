import { type Model, modelShortLabel } from '@sprout/protocol/models.ts'
import { type KeyboardEvent, useCallback, useId, useMemo, useRef, useState } from 'react'
import { ChevronDownIcon } from '../../components/ui/icons.tsx'
import { useDismiss } from '../../hooks/use-dismiss.ts'
import { classNames } from '../../lib/class-names.ts'
import { groupModels } from './group-models.ts'
import { ModelDetails } from './model-details.tsx'

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
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one listbox: its open state, keyboard handling and markup read best together
export function ModelSelector({
  models,
  value,
  onChange,
  disabled,
  align = 'end',
  placement = 'below',
}: ModelSelectorProps) {
  const idPrefix = useId()
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const listRef = useRef<HTMLDivElement>(null)
  const [open, setOpen] = useState(false)
  const [activeId, setActiveId] = useState<string | undefined>()

  const groups = useMemo(() => groupModels(models), [models])
  const ordered = useMemo(() => groups.flatMap((group) => group.models), [groups])
  const selectable = useMemo(() => ordered.filter((model) => model.available), [ordered])
  const optionId = (modelId: string) => `${idPrefix}-option-${modelId}`

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false)
    setActiveId(undefined)
    if (returnFocus) buttonRef.current?.focus()
  }, [])
  const onDismiss = useCallback(
    (reason: 'outside' | 'escape') => close(reason === 'escape'),
    [close],
  )
  useDismiss(rootRef, open, onDismiss)

  const openList = () => {
    const current = selectable.find((model) => model.model === value) ?? selectable[0]
    setActiveId(current?.model)
    setOpen(true)
    // Focus after the list has rendered so arrow keys work at once.
    requestAnimationFrame(() => listRef.current?.focus())
  }

  const choose = (model: Model) => {
    if (!model.available) return
    onChange(model.model)
    close(true)
  }

  const moveActive = (step: number | 'first' | 'last') => {
    if (selectable.length === 0) return
    const index = selectable.findIndex((model) => model.model === activeId)
    let next: number
    if (step === 'first') next = 0
    else if (step === 'last') next = selectable.length - 1
    else if (index === -1) next = step > 0 ? 0 : selectable.length - 1
    else next = (index + step + selectable.length) % selectable.length
    const target = selectable[next]
    if (!target) return
    setActiveId(target.model)
    document.getElementById(optionId(target.model))?.scrollIntoView?.({ block: 'nearest' })
  }

  const onListKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        moveActive(1)
        break
      case 'ArrowUp':
        moveActive(-1)
        break
      case 'Home':
        moveActive('first')
        break
      case 'End':
        moveActive('last')
        break
      case 'Enter':
      case ' ': {
        const active = ordered.find((model) => model.model === activeId)
        if (active) choose(active)
        break
      }
      case 'Tab':
        close(false)
        return
      default:
        return
    }
    event.preventDefault()
  }

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && !open) {
      event.preventDefault()
      openList()
    }
  }

  const detailModel =
    ordered.find((model) => model.model === activeId) ??
    ordered.find((model) => model.model === value) ??
    ordered[0]

  return (
    <div ref={rootRef} className="relative inline-block">
      <button
        ref={buttonRef}
        type="button"
        title="Choose a model"
        aria-haspopup="listbox"
        aria-expanded={open}
        disabled={disabled}
        onClick={() => (open ? close(false) : openList())}
        onKeyDown={onButtonKeyDown}
        className="inline-flex h-10 items-center gap-2 rounded-xl border border-zinc-200 bg-white px-3 text-sm font-medium text-zinc-800 shadow-sm transition-colors hover:bg-zinc-50 disabled:cursor-not-allowed disabled:text-zinc-400"
      >
        <span aria-hidden="true" className="size-2 rounded-full bg-accent-500" />
        {modelShortLabel(value)}
        <ChevronDownIcon className="text-zinc-400" />
      </button>

      {open && (
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
            ref={listRef}
            role="listbox"
            aria-label="Models"
            tabIndex={-1}
            aria-activedescendant={activeId ? optionId(activeId) : undefined}
            onKeyDown={onListKeyDown}
            className="max-h-80 overflow-y-auto p-2 outline-none sm:w-1/2 sm:border-r sm:border-zinc-100"
          >
            {groups.length === 0 && (
              <p className="px-2 py-6 text-center text-sm text-zinc-500">No models available</p>
            )}
            {groups.map((group) => (
              // biome-ignore lint/a11y/useSemanticElements: a listbox groups its options with role="group"
              <div
                key={group.provider}
                role="group"
                aria-labelledby={`${idPrefix}-group-${group.provider}`}
              >
                <div
                  id={`${idPrefix}-group-${group.provider}`}
                  className="px-2 pt-2 pb-1 text-xs font-semibold tracking-wide text-zinc-400 uppercase"
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
                    onMouseEnter={() => setActiveId(model.model)}
                    onClick={() => choose(model)}
                    className={classNames(
                      'flex cursor-pointer flex-col rounded-lg px-2 py-1.5 text-sm',
                      model.model === activeId && 'bg-zinc-100',
                      !model.available && 'cursor-not-allowed opacity-60',
                    )}
                  >
                    <span className="flex items-center gap-2">
                      <span className="flex-1 truncate text-zinc-800">{model.name}</span>
                      {model.model === value && (
                        <svg
                          viewBox="0 0 20 20"
                          aria-hidden="true"
                          className="size-4 text-accent-600"
                        >
                          <path
                            d="m5 10 3 3 7-7"
                            fill="none"
                            stroke="currentColor"
                            strokeWidth="2"
                            strokeLinecap="round"
                            strokeLinejoin="round"
                          />
                        </svg>
                      )}
                    </span>
                    {!model.available && model.unavailableReason && (
                      <span className="text-xs text-zinc-500">{model.unavailableReason}</span>
                    )}
                  </div>
                ))}
              </div>
            ))}
          </div>
          {detailModel && (
            <div className="border-t border-zinc-100 p-4 sm:w-1/2 sm:border-t-0">
              <ModelDetails model={detailModel} />
            </div>
          )}
        </div>
      )}
    </div>
  )
}
