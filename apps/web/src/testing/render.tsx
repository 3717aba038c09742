import { act, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { expect } from 'vitest'

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true

const mounted: { root: Root; container: HTMLElement }[] = []

/** Renders into a fresh container in the document (for the chat's component tests). */
export function render(element: ReactNode): HTMLElement {
  const container = document.createElement('div')
  document.body.append(container)
  const root = createRoot(container)
  act(() => root.render(element))
  mounted.push({ root, container })
  return container
}

/** Renders a new element into a container `render` made (a props change). */
export function rerender(container: HTMLElement, element: ReactNode): void {
  const entry = mounted.find((candidate) => candidate.container === container)
  if (!entry) throw new Error('Not rendered by render()')
  act(() => entry.root.render(element))
}

export function cleanup(): void {
  for (const { root, container } of mounted.splice(0)) {
    act(() => root.unmount())
    container.remove()
  }
}

export function click(element: Element | null | undefined): void {
  if (!element) throw new Error('Nothing to click')
  act(() => {
    element.dispatchEvent(new MouseEvent('click', { bubbles: true }))
  })
}

/** The button whose text contains `text`. */
export function buttonWithText(container: HTMLElement, text: string): HTMLButtonElement {
  const button = [...container.querySelectorAll('button')].find((candidate) =>
    candidate.textContent?.includes(text),
  )
  if (!button) throw new Error(`No button with the text ${text}`)
  return button
}

/** Everything the page shows, for assertions and failure messages. */
export const pageText = () => document.body.textContent ?? ''

/** The button whose text (or aria-label) is `name`, within `scope`. */
export function buttonNamed(name: string, scope: ParentNode | null = document): HTMLButtonElement {
  const found = Array.from(scope?.querySelectorAll('button') ?? []).find(
    (candidate) =>
      candidate.textContent?.trim() === name || candidate.getAttribute('aria-label') === name,
  )
  if (!found) throw new Error(`No button ${name} in: ${pageText()}`)
  return found
}

/** Waits, in real time (up to ~5 s), for the screen to reach a condition. */
export async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 1000 && !condition(); attempt++) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5))
    })
  }
  expect(condition(), pageText()).toBe(true)
}
