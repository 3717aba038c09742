/** Hands a blob to the browser as a download named `fileName`, through a temporary link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  // The click has handed the blob to the download; the URL may go once it has started.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

/**
 * Saves a fetched answer as a file, named as the server names it (Content-Disposition), for calls
 * a plain link cannot make (they need the Organization-ID header).
 */
export async function saveResponse(response: Response, fallbackName: string): Promise<void> {
  const disposition = response.headers.get('Content-Disposition') ?? ''
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName
  saveBlob(await response.blob(), fileName)
}
