import { useContext, useEffect } from 'react'
import { ApplicationNameContext } from '../lib/application-name-context.ts'

/** The application name shown in the navbar, if a screen has set one. */
export function useApplicationName(): string | undefined {
  return useContext(ApplicationNameContext).applicationName
}

/** Shows `name` in the navbar while the calling screen is mounted. */
export function useShowApplicationName(name: string | undefined): void {
  const { setApplicationName } = useContext(ApplicationNameContext)
  useEffect(() => {
    setApplicationName(name)
    return () => setApplicationName(undefined)
  }, [name, setApplicationName])
}
