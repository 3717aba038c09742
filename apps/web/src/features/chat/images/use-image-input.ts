import { type ClipboardEvent, type DragEvent, useState } from 'react'

// While dragging, the files are not readable yet; their kind is.
const holdsFiles = (data: DataTransfer) => data.types.includes('Files')

/**
 * Paste and drag and drop of files into the chat input (docs/product/images.md). A paste that
 * also carries text (a spreadsheet's cells come with a picture of them) pastes the text.
 */
export function useImageInput(onFiles: ((files: File[]) => void) | undefined) {
  const [isDragging, setDragging] = useState(false)
  if (!onFiles) return { isDragging: false, pasteProps: {}, dropProps: {} }

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.files]
    if (files.length === 0 || event.clipboardData.getData('text/plain') !== '') return
    event.preventDefault()
    onFiles(files)
  }
  const onDragOver = (event: DragEvent<HTMLElement>) => {
    if (!holdsFiles(event.dataTransfer)) return
    event.preventDefault()
    event.dataTransfer.dropEffect = 'copy'
    setDragging(true)
  }
  const onDragLeave = (event: DragEvent<HTMLElement>) => {
    // Moving onto a child of the input is no leaving.
    if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) {
      return
    }
    setDragging(false)
  }
  const onDrop = (event: DragEvent<HTMLElement>) => {
    const files = [...event.dataTransfer.files]
    if (files.length === 0) return
    event.preventDefault()
    setDragging(false)
    onFiles(files)
  }
  return { isDragging, pasteProps: { onPaste }, dropProps: { onDragOver, onDragLeave, onDrop } }
}
