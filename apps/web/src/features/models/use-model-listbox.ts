import type { Model } from '@sprout/protocol/models.ts'
import { type KeyboardEvent, useCallback, useId, useMemo, useRef, useState } from 'react'
import { useDismiss } from '../../hooks/use-dismiss.ts'
import { type ListMove, useListKeyboard } from '../../hooks/use-list-keyboard.ts'
import { groupModels } from './group-models.ts'
import { selectableAfter } from './selectable-after.ts'

type ModelListboxOptions = {
  models: Model[]
  value: string | undefined
  onChange: (modelId: string) => void
}

/**
 * The model selector's open state and keyboard. The focus stays on the listbox; the active
 * option is named by aria-activedescendant.
 */
export function useModelListbox({ models, value, onChange }: ModelListboxOptions) {
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

  const moveActive = (move: ListMove) => {
    const target = selectableAfter(selectable, activeId, move)
    if (!target) return
    setActiveId(target.model)
    document.getElementById(optionId(target.model))?.scrollIntoView?.({ block: 'nearest' })
  }
  const onListKeyDown = useListKeyboard({
    onMove: moveActive,
    onTab: () => close(false),
    onChoose: () => {
      const active = ordered.find((model) => model.model === activeId)
      if (active) choose(active)
    },
  })

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

  return {
    idPrefix,
    optionId,
    rootRef,
    buttonRef,
    listRef,
    open,
    activeId,
    setActiveId,
    groups,
    detailModel,
    close,
    openList,
    choose,
    onListKeyDown,
    onButtonKeyDown,
  }
}
