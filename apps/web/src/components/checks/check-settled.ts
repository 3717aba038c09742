import { createContext, useContext, useEffect, useRef } from 'react'

/**
 * Told when a Checks block in the chat ends (docs/product/checks.md "Shown on the run"): the
 * builder's toolbar then reads the app's last check at once instead of at its next poll.
 */
export const CheckSettledContext = createContext<(() => void) | undefined>(undefined)

/** Calls the builder's callback when a check seen running ends, not for checks ended before. */
export function useCheckSettled(state: string | undefined) {
  const onSettled = useContext(CheckSettledContext)
  const previous = useRef(state)
  useEffect(() => {
    if (previous.current === 'running' && state !== 'running') onSettled?.()
    previous.current = state
  }, [state, onSettled])
}
