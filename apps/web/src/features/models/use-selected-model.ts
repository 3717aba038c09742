import {
  type Model,
  pickDefaultModel,
  SELECTED_MODEL_STORAGE_KEY,
} from '@sprout/protocol/models.ts'
import { useCallback, useState } from 'react'

function readRemembered(): string | null {
  try {
    return window.localStorage.getItem(SELECTED_MODEL_STORAGE_KEY)
  } catch {
    return null
  }
}

/**
 * The chosen model id: the remembered choice while it is available, else claude-haiku-4-5, else the
 * first available model (docs/product/models.md). Choosing remembers it in local storage under
 * `selectedModel`.
 */
export function useSelectedModel(
  models: Model[] | undefined,
): [string | undefined, (modelId: string) => void] {
  const [remembered, setRemembered] = useState(readRemembered)
  const select = useCallback((modelId: string) => {
    try {
      window.localStorage.setItem(SELECTED_MODEL_STORAGE_KEY, modelId)
    } catch {
      // Storage can be full or disabled; the choice still holds for this page.
    }
    setRemembered(modelId)
  }, [])
  return [models ? pickDefaultModel(models, remembered) : undefined, select]
}
