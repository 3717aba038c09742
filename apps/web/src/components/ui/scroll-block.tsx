import type { HTMLAttributes } from 'react'

type ScrollBlockProps = HTMLAttributes<HTMLElement> & {
  /** What the block holds ('Output', 'Stack trace'): a screen reader says it on focus. */
  label: string
  /** A <pre> for text as it is (the default), a <div> for lines laid out one by one. */
  as?: 'pre' | 'div'
}

/**
 * A block of text that scrolls when long (a stack, a tool's output). A keyboard reaches and
 * scrolls it: it takes the focus and is named (axe "scrollable-region-focusable"). A group, not a
 * region: a chat holds many, and landmarks are for the page's parts.
 */
export function ScrollBlock({ label, as: Element = 'pre', ...props }: ScrollBlockProps) {
  return <Element role="group" aria-label={label} tabIndex={0} {...props} />
}
