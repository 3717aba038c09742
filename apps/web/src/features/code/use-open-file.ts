import type { FileContent } from '@sprout/protocol/api/versions.ts'
import { useCallback, useRef, useState } from 'react'
import { ApiError } from '../../lib/api-error.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { readFile, saveFile } from './code-api.ts'

export type OpenedFile = {
  path: string
  /** The text as last read or saved: the unsaved marker compares against it. */
  savedText: string
  hash: string
  /** The server said so when the file was read (a run was active). */
  readOnly: boolean
}

/**
 * The Code tab's open file: reading it, unsaved text per file (kept when another file is opened),
 * Save with the hash it was opened at, and a conflict when it changed since (docs/product/
 * versions.md "Code").
 */
export function useOpenFile(applicationId: string, onSaved: () => void) {
  const [file, setFile] = useState<OpenedFile | undefined>(undefined)
  const [text, setText] = useState('')
  /** Bumped when the editor must take `text` again (a file opened, a reload). */
  const [version, setVersion] = useState(0)
  const [busy, setBusy] = useState<'opening' | 'saving' | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  const [conflict, setConflict] = useState(false)
  const drafts = useRef(new Map<string, string>())
  const showText = useCallback((next: string) => {
    setText(next)
    setVersion((count) => count + 1)
  }, [])

  const load = useCallback(
    async (path: string, options: { keepDraft: boolean }) => {
      setBusy('opening')
      setError(undefined)
      try {
        const read = await readFile(applicationId, path)
        const draft = options.keepDraft ? drafts.current.get(read.path) : undefined
        if (!options.keepDraft) drafts.current.delete(read.path)
        setFile(openedFrom(read))
        showText(draft ?? read.content)
      } catch (caught) {
        setError(errorMessage(caught))
      } finally {
        setBusy(undefined)
      }
    },
    [applicationId, showText],
  )

  const open = useCallback((path: string) => load(path, { keepDraft: true }), [load])

  const change = useCallback(
    (next: string) => {
      setText(next)
      if (file) drafts.current.set(file.path, next)
    },
    [file],
  )

  const save = useCallback(
    async (overwrite = false) => {
      if (!file || busy) return
      setBusy('saving')
      setError(undefined)
      try {
        const saved = await saveFile(applicationId, {
          path: file.path,
          content: text,
          baseHash: file.hash,
          ...(overwrite ? { overwrite: true } : {}),
        })
        drafts.current.delete(file.path)
        setFile({ ...file, savedText: text, hash: saved.hash })
        setConflict(false)
        onSaved()
      } catch (caught) {
        if (isChangedMeanwhile(caught)) setConflict(true)
        else setError(errorMessage(caught))
      } finally {
        setBusy(undefined)
      }
    },
    [applicationId, busy, file, onSaved, text],
  )

  /** The file as it is now on the server; the unsaved text is dropped. */
  const reload = useCallback(async () => {
    setConflict(false)
    if (file) await load(file.path, { keepDraft: false })
  }, [file, load])

  /**
   * Reads the open file again after a run started or ended, keeping unsaved text; answers whether
   * it is still read-only (the run's row closes a moment after the chat shows its end).
   */
  const refresh = useCallback(async (): Promise<boolean | undefined> => {
    if (!file) return undefined
    const read = await readFile(applicationId, file.path).catch(() => undefined)
    if (!read) return undefined
    const unsaved = text !== file.savedText
    setFile(unsaved ? { ...file, readOnly: read.readOnly } : openedFrom(read))
    if (!unsaved && read.content !== text) showText(read.content)
    return read.readOnly
  }, [applicationId, file, text, showText])

  return {
    file,
    text,
    version,
    busy,
    error,
    conflict,
    unsaved: file !== undefined && text !== file.savedText,
    unsavedPaths: unsavedPathsOf(drafts.current, file, text),
    open,
    change,
    save,
    reload,
    refresh,
    dismissConflict: () => setConflict(false),
  }
}

function unsavedPathsOf(
  drafts: ReadonlyMap<string, string>,
  file: OpenedFile | undefined,
  text: string,
): ReadonlySet<string> {
  const paths = new Set(drafts.keys())
  if (file) {
    if (text === file.savedText) paths.delete(file.path)
    else paths.add(file.path)
  }
  return paths
}

function openedFrom(read: FileContent): OpenedFile {
  return { path: read.path, savedText: read.content, hash: read.hash, readOnly: read.readOnly }
}

/** A 409 for a file changed since it was opened (not the one for a run in progress). */
function isChangedMeanwhile(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === 409 &&
    error.message.startsWith('This file changed')
  )
}
