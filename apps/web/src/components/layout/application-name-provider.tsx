import { type ReactNode, useMemo, useState } from 'react'
import { ApplicationNameContext } from '../../lib/application-name-context.ts'

export function ApplicationNameProvider({ children }: { children: ReactNode }) {
  const [applicationName, setApplicationName] = useState<string | undefined>()
  const value = useMemo(() => ({ applicationName, setApplicationName }), [applicationName])
  return <ApplicationNameContext value={value}>{children}</ApplicationNameContext>
}
