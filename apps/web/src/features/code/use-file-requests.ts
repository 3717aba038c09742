import { useEffect, useRef } from 'react'
import type { CodeFileRequest } from './use-code-file-request.ts'

type OpenedFiles = {
  file: { path: string } | undefined
  busy: 'opening' | 'saving' | undefined
  open: (path: string) => Promise<void>
}

/**
 * The Code tab opens `firstFile` (or the requested one) when it mounts, then each new request;
 * answers the place to put the cursor once the requested file is open.
 */
export function useFileRequests(
  opened: OpenedFiles,
  fileRequest: CodeFileRequest | undefined,
  firstFile: string,
) {
  const { open, file, busy } = opened
  const started = useRef(false)
  const handledRequest = useRef(fileRequest?.id)
  useEffect(() => {
    if (started.current) return
    started.current = true
    void open(fileRequest?.path ?? firstFile)
  }, [open, fileRequest, firstFile])
  const openedPath = file?.path
  useEffect(() => {
    if (!fileRequest || handledRequest.current === fileRequest.id) return
    handledRequest.current = fileRequest.id
    if (openedPath !== fileRequest.path) void open(fileRequest.path)
  }, [fileRequest, open, openedPath])
  const isShown = fileRequest && openedPath === fileRequest.path && busy !== 'opening'
  return isShown && fileRequest.line !== null
    ? { line: fileRequest.line, column: fileRequest.column, id: fileRequest.id }
    : undefined
}
