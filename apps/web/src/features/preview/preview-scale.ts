import { PREVIEW_VIRTUAL_HEIGHT_PX, PREVIEW_VIRTUAL_WIDTH_PX } from '@sprout/protocol/constants.ts'

export type PreviewScale = { scale: number; width: number; height: number }

/**
 * docs/product/builder.md "Preview pane": the preview renders a virtual 1024x768 page, shrunk with
 * a CSS transform to the width it has (never enlarged). `width` and `height` are the space the
 * shrunk page takes up.
 */
export function previewScale(
  availableWidth: number,
  virtualWidth = PREVIEW_VIRTUAL_WIDTH_PX,
  virtualHeight = PREVIEW_VIRTUAL_HEIGHT_PX,
): PreviewScale {
  if (!Number.isFinite(availableWidth) || availableWidth <= 0) {
    return { scale: 0, width: 0, height: 0 }
  }
  const scale = Math.min(1, availableWidth / virtualWidth)
  return { scale, width: virtualWidth * scale, height: virtualHeight * scale }
}
