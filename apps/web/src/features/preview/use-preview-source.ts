import { useCallback, useEffect, useState } from 'react'
import { devboxCallbackUrl, devboxTokenErrorMessage, requestDevboxToken } from './devbox-token.ts'

type PreviewSource = { src?: string; error?: string }

/**
 * The iframe address of a preview, signed in: the product cannot be framed (frame-ancestors
 * 'none'), so the builder does the /auth/devbox hand-off itself — a fresh single-use token, then
 * the dev box's callback URL. `reload` repeats it, which also reloads the frame.
 */
export function usePreviewSource(previewUrl: string | undefined, enabled: boolean) {
  const [source, setSource] = useState<PreviewSource>({})
  const [generation, setGeneration] = useState(0)

  // biome-ignore lint/correctness/useExhaustiveDependencies: `generation` asks for a new token
  useEffect(() => {
    if (!previewUrl || !enabled) return
    let cancelled = false
    setSource((current) => ({ src: current.src }))
    requestDevboxToken(previewUrl).then(
      (token) => {
        if (!cancelled) setSource({ src: devboxCallbackUrl(previewUrl, token, '/') })
      },
      (error: unknown) => {
        if (!cancelled) setSource({ error: devboxTokenErrorMessage(error) })
      },
    )
    return () => {
      cancelled = true
    }
  }, [previewUrl, enabled, generation])

  const reload = useCallback(() => setGeneration((current) => current + 1), [])
  return { ...source, reload }
}
