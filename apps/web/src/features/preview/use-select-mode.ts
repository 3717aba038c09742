import {
  type PreviewSelection,
  previewSelectionSchema,
  readSourceAttribute,
  SELECTION_SNIPPET_MAX,
} from '@sprout/protocol/api/preview-selections.ts'
import {
  SELECT_MESSAGE_SOURCE,
  type SelectModeMessage,
  type SelectOverlayMessage,
} from '@sprout/protocol/preview/select-messages.ts'
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react'

type Options = {
  /** The preview iframe: the overlay in its page hears the mode. */
  frameRef: RefObject<HTMLIFrameElement | null>
  /** Its messages are taken from this address's origin only. */
  previewUrl: string | undefined
  /** A page is showing. */
  canSelect: boolean
  /** The pane is focused: pointing needs the page, not the cover that takes the first click. */
  focused: boolean
  focus: () => void
  /** Takes a picked element; without it there is no Select mode. */
  onSelect: ((selection: PreviewSelection) => void) | undefined
}

type MessagingOptions = {
  frameRef: RefObject<HTMLIFrameElement | null>
  previewOrigin: string | undefined
  selecting: boolean
  onSelect: (selection: PreviewSelection) => void
  /** Escape pressed inside the preview, or in the builder while the mode is on. */
  onExit: () => void
}

/** The preview's origin, the only one the Select overlay's messages are taken from. */
const originOf = (url: string | undefined) =>
  url && URL.canParse(url) ? new URL(url).origin : undefined

/**
 * docs/product/builder.md "Select mode": on with the toolbar's 'Select', off with it again, with
 * Escape (in the builder or the preview) and when the pane lets go of the preview.
 */
export function useSelectMode({
  frameRef,
  previewUrl,
  canSelect,
  focused,
  focus,
  onSelect,
}: Options) {
  const [wanted, setWanted] = useState(false)
  useEffect(() => {
    if (!focused) setWanted(false)
  }, [focused])
  const selecting = wanted && focused && canSelect && onSelect !== undefined
  useSelectMessages({
    frameRef,
    previewOrigin: originOf(previewUrl),
    selecting,
    onSelect: (selection) => onSelect?.(selection),
    onExit: () => setWanted(false),
  })
  const toggle = () => {
    if (!selecting) focus()
    setWanted(!selecting)
  }
  const toolbar = onSelect && { on: selecting, disabled: !canSelect, onToggle: toggle }
  return { selecting, toolbar }
}

/** The overlay's messages, as far as their shape goes; anything else is no message of ours. */
const overlayMessage = (data: unknown): SelectOverlayMessage | undefined =>
  typeof data === 'object' &&
  data !== null &&
  (data as { source?: unknown }).source === SELECT_MESSAGE_SOURCE
    ? (data as SelectOverlayMessage)
    : undefined

/** A `selected` message as a selection, when the element's location and tag are well formed. */
function selectionOf(message: Extract<SelectOverlayMessage, { type: 'selected' }>) {
  const location = readSourceAttribute(String(message.location))
  if (!location) return undefined
  const parsed = previewSelectionSchema.safeParse({
    ...location,
    tag: message.tag,
    snippet: String(message.snippet).slice(0, SELECTION_SNIPPET_MAX),
  })
  return parsed.success ? parsed.data : undefined
}

/**
 * docs/product/builder.md "Select mode": tells the overlay in the preview's page whether the mode
 * is on (again whenever a page loads there, so a navigation keeps it), and hears which element was
 * picked. Only the preview's origin is listened to, and the mode is posted to it alone.
 */
function useSelectMessages({
  frameRef,
  previewOrigin,
  selecting,
  onSelect,
  onExit,
}: MessagingOptions) {
  const latest = useRef({ onSelect, onExit, selecting })
  latest.current = { onSelect, onExit, selecting }

  const postMode = useCallback(
    (on: boolean) => {
      const target = frameRef.current?.contentWindow
      if (!target || !previewOrigin) return
      const message: SelectModeMessage = { source: SELECT_MESSAGE_SOURCE, type: 'mode', on }
      target.postMessage(message, previewOrigin)
    },
    [frameRef, previewOrigin],
  )

  useEffect(() => postMode(selecting), [selecting, postMode])

  useEffect(() => {
    if (!previewOrigin) return
    const listen = (event: MessageEvent) => {
      if (event.origin !== previewOrigin) return
      if (event.source !== frameRef.current?.contentWindow) return
      const message = overlayMessage(event.data)
      if (!message) return
      if (message.type === 'ready') postMode(latest.current.selecting)
      else if (message.type === 'exit') latest.current.onExit()
      else if (message.type === 'selected' && latest.current.selecting) {
        const selection = selectionOf(message)
        if (selection) latest.current.onSelect(selection)
      }
    }
    window.addEventListener('message', listen)
    return () => window.removeEventListener('message', listen)
  }, [previewOrigin, frameRef, postMode])

  // Escape in the builder too; first, so the chat's Escape (interrupt) does not also take it.
  useEffect(() => {
    if (!selecting) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      event.preventDefault()
      event.stopPropagation()
      latest.current.onExit()
    }
    document.addEventListener('keydown', onKeyDown, true)
    return () => document.removeEventListener('keydown', onKeyDown, true)
  }, [selecting])
}
