// What the builder and the Select overlay in its preview say to each other with postMessage
// (docs/product/builder.md "Select mode"). No zod here: the overlay is bundled into every preview
// page and stays small; the builder checks a selection with previewSelectionSchema.

export const SELECT_MESSAGE_SOURCE = 'sprout-select'

/** The builder to the overlay: Select mode on or off. */
export type SelectModeMessage = { source: typeof SELECT_MESSAGE_SOURCE; type: 'mode'; on: boolean }

/**
 * The overlay to the builder: `ready` when a page loads (the builder answers with the mode, so a
 * navigation inside the preview keeps it), `selected` with the element's `data-sprout-source`,
 * tag and snippet, `exit` when Escape was pressed inside the preview.
 */
export type SelectOverlayMessage =
  | { source: typeof SELECT_MESSAGE_SOURCE; type: 'ready' }
  | { source: typeof SELECT_MESSAGE_SOURCE; type: 'exit' }
  | {
      source: typeof SELECT_MESSAGE_SOURCE
      type: 'selected'
      location: string
      tag: string
      snippet: string
    }
