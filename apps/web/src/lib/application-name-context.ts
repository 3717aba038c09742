import { createContext } from 'react'

export type ApplicationNameState = {
  applicationName: string | undefined
  setApplicationName: (name: string | undefined) => void
}

/** The name the navbar shows while the user is inside an application (the builder fills it). */
export const ApplicationNameContext = createContext<ApplicationNameState>({
  applicationName: undefined,
  setApplicationName: () => {},
})
