import { useCallback, useRef, useState } from 'react'

/** A file to open in the Code tab from elsewhere, at a line (docs/product/checks.md). */
export type CodeFileRequest = {
  path: string
  line: number | null
  column: number | null
  /** New for each request, so asking for the same place again shows it again. */
  id: number
}

export type CodeFilePlace = { file: string; line: number | null; column: number | null }

/** The builder's requests to show a file in the Code tab; `onOpen` brings the tab forward. */
export function useCodeFileRequest(onOpen: () => void) {
  const [request, setRequest] = useState<CodeFileRequest | undefined>(undefined)
  const latestOnOpen = useRef(onOpen)
  latestOnOpen.current = onOpen
  const openFile = useCallback((place: CodeFilePlace) => {
    setRequest((previous) => ({
      path: place.file,
      line: place.line,
      column: place.column,
      id: (previous?.id ?? 0) + 1,
    }))
    latestOnOpen.current()
  }, [])
  return { request, openFile }
}
