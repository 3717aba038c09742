import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, describe, expect, it } from 'vitest'
import { PreviewPane, type PreviewPaneProps } from './preview-pane.tsx'

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true

let mounted: { root: Root; container: HTMLElement } | undefined

function renderPane(props: PreviewPaneProps) {
  const container = document.createElement('div')
  document.body.append(container)
  const root = createRoot(container)
  act(() => root.render(<PreviewPane {...props} />))
  mounted = { root, container }
  return container
}

afterEach(() => {
  if (!mounted) return
  const { root, container } = mounted
  act(() => root.unmount())
  container.remove()
  mounted = undefined
})

const previewUrl = 'http://my-app.preview.localhost:3000'

describe('PreviewPane', () => {
  it("says 'Starting preview…' while an idle dev server starts again, not an error", () => {
    const container = renderPane({
      previewUrl,
      readiness: { ready: false, starting_preview: true },
    })
    const status = container.querySelector('[role="status"]')
    expect(status?.textContent).toContain('Starting preview…')
    expect(container.querySelector('[role="alert"]')).toBeNull()
    expect(container.querySelector('iframe')).toBeNull()
  })

  it("says 'Starting your app…' while a new dev box is set up", () => {
    const container = renderPane({ previewUrl, readiness: { ready: false } })
    expect(container.querySelector('[role="status"]')?.textContent).toContain('Starting your app…')
  })
})
