import { CHAT_IMAGES_PER_MESSAGE, type ChatImage, imageUrl } from '@sprout/protocol/api/images.ts'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { TOO_MANY_IMAGES_MESSAGE } from '../lib/chat-image-texts.ts'
import { errorMessage } from '../lib/error-message.ts'
import { imageFileRefusal } from '../lib/image-file-refusal.ts'
import { uploadImage } from '../lib/upload-image.ts'

/** One image of the draft: read and uploaded as soon as it is attached. */
export type ImageAttachment = {
  key: string
  /** The file's name; empty for an image handed back after a failed send. */
  name: string
  /** Null until its bytes were found to be an image: then the local file, or the uploaded one. */
  previewUrl: string | null
  /** The upload's answer; null while it uploads. */
  image: ChatImage | null
}

export type ImageAttachments = {
  items: readonly ImageAttachment[]
  /** Why the last image or send was refused; said in the chat's error line. */
  error: string | null
  setError: (error: string | null) => void
  /** Reads and uploads each file; past CHAT_IMAGES_PER_MESSAGE the rest are refused. */
  add: (files: readonly File[]) => void
  remove: (key: string) => void
  /** The images went with a message. */
  clear: () => void
  /** A send failed: its images come back to the draft, first. */
  restore: (images: readonly ChatImage[]) => void
}

/** The uploaded images, in the order they were attached. */
export const readyImages = (items: readonly ImageAttachment[]): ChatImage[] =>
  items.flatMap((item) => (item.image ? [item.image] : []))

type Upload = { controller: AbortController; objectUrl?: string }

/** The list, readable at once, and each upload's abort and object URL, released together. */
function useAttachmentList() {
  const [items, setItems] = useState<readonly ImageAttachment[]>([])
  // Read synchronously: several files added at once must each see the ones before them.
  const itemsRef = useRef(items)
  const uploads = useRef(new Map<string, Upload>())

  const update = useCallback(
    (change: (current: readonly ImageAttachment[]) => readonly ImageAttachment[]) => {
      itemsRef.current = change(itemsRef.current)
      setItems(itemsRef.current)
    },
    [],
  )
  const patch = useCallback(
    (key: string, fields: Partial<ImageAttachment>) =>
      update((current) =>
        current.map((item) => (item.key === key ? { ...item, ...fields } : item)),
      ),
    [update],
  )
  const release = useCallback((key: string) => {
    const upload = uploads.current.get(key)
    if (!upload) return
    upload.controller.abort()
    if (upload.objectUrl) URL.revokeObjectURL(upload.objectUrl)
    uploads.current.delete(key)
  }, [])
  const drop = useCallback(
    (key: string) => {
      release(key)
      update((current) => current.filter((item) => item.key !== key))
    },
    [release, update],
  )
  const releaseAll = useCallback(() => {
    for (const key of [...uploads.current.keys()]) release(key)
  }, [release])

  useEffect(() => releaseAll, [releaseAll])
  return { items, itemsRef, uploads, update, patch, drop, releaseAll }
}

/** The images of a chat's draft (docs/product/images.md), kept beside its text. */
export function useImageAttachments(): ImageAttachments {
  const [error, setError] = useState<string | null>(null)
  const { items, itemsRef, uploads, update, patch, drop, releaseAll } = useAttachmentList()

  const attach = useCallback(
    async (file: File) => {
      const key = crypto.randomUUID()
      const upload: Upload = { controller: new AbortController() }
      const { signal } = upload.controller
      uploads.current.set(key, upload)
      update((current) => [...current, { key, name: file.name, previewUrl: null, image: null }])
      const refusal = await imageFileRefusal(file)
      if (signal.aborted) return
      if (refusal) {
        drop(key)
        setError(refusal)
        return
      }
      upload.objectUrl = URL.createObjectURL(file)
      patch(key, { previewUrl: upload.objectUrl })
      try {
        const image = await uploadImage(file, signal)
        if (!signal.aborted) patch(key, { image })
      } catch (caught) {
        if (signal.aborted) return
        drop(key)
        setError(errorMessage(caught))
      }
    },
    [uploads, update, patch, drop],
  )

  const add = useCallback(
    (files: readonly File[]) => {
      const room = Math.max(0, CHAT_IMAGES_PER_MESSAGE - itemsRef.current.length)
      setError(files.length > room ? TOO_MANY_IMAGES_MESSAGE : null)
      for (const file of files.slice(0, room)) void attach(file)
    },
    [itemsRef, attach],
  )
  const remove = useCallback(
    (key: string) => {
      drop(key)
      setError(null)
    },
    [drop],
  )
  const clear = useCallback(() => {
    releaseAll()
    update(() => [])
    setError(null)
  }, [releaseAll, update])
  const restore = useCallback(
    (images: readonly ChatImage[]) =>
      update((current) => {
        const kept = current.filter((item) => !images.some((image) => image.id === item.image?.id))
        const restored = images.map((image) => ({
          key: crypto.randomUUID(),
          name: '',
          previewUrl: imageUrl(image.id),
          image,
        }))
        return [...restored, ...kept]
      }),
    [update],
  )

  return useMemo(
    () => ({ items, error, setError, add, remove, clear, restore }),
    [items, error, add, remove, clear, restore],
  )
}
