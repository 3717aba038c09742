/**
 * A ref that focuses its element once, when it mounts: the History list or a diff takes the focus
 * as it shows, so the keys (Escape, the arrows that scroll) act there at once. One function for
 * every render, so React calls it again only for a new element.
 */
export function focusOnMount(element: HTMLElement | null): void {
  element?.focus()
}
