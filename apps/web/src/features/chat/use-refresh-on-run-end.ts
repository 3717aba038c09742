import { useEffect, useRef } from 'react'

/**
 * A run that ends may have renamed the conversation or moved it to the top: the list is refreshed
 * whenever no run is going, and `onRunFinished` is called when one ends.
 */
export function useRefreshOnRunEnd(
  isRunning: boolean,
  refreshConversations: () => void,
  onRunFinished: (() => void) | undefined,
): void {
  const wasRunning = useRef(false)
  const latestOnRunFinished = useRef(onRunFinished)
  latestOnRunFinished.current = onRunFinished
  useEffect(() => {
    if (!isRunning) refreshConversations()
    if (wasRunning.current && !isRunning) latestOnRunFinished.current?.()
    wasRunning.current = isRunning
  }, [isRunning, refreshConversations])
}
