import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render } from '../../testing/render.tsx'
import { PreviewPane, type PreviewPaneProps } from './preview-pane.tsx'

const renderPane = (props: PreviewPaneProps) => render(<PreviewPane {...props} />)

afterEach(cleanup)

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

  // Issue 20: opening an idle app's builder flashed the new app's 'Setting up its dev box'
  // while its first readiness answer was on its way.
  it("says neither start text before the first readiness answer, so an idle app never flashes 'Starting your app…'", () => {
    const container = renderPane({ previewUrl, readiness: undefined })
    const status = container.querySelector('[role="status"]')?.textContent
    expect(status).toContain('Opening the preview…')
    expect(status).not.toContain('Starting your app…')
    expect(status).not.toContain('Setting up its dev box')
    expect(container.querySelector('iframe')).toBeNull()
  })

  it("says 'Starting your app…' while a new dev box is set up", () => {
    const container = renderPane({ previewUrl, readiness: { ready: false } })
    expect(container.querySelector('[role="status"]')?.textContent).toContain('Starting your app…')
  })

  // Issue 29: fifty new apps at once; each builder says where its box is in the line.
  it("says 'Waiting for a dev box…' with the boxes ahead while its start waits its turn", () => {
    const container = renderPane({ previewUrl, readiness: { ready: false, queue_position: 7 } })
    const status = container.querySelector('[role="status"]')?.textContent
    expect(status).toContain('Waiting for a dev box…')
    expect(status).toContain('7 ahead of you.')
    expect(container.querySelector('[role="alert"]')).toBeNull()
    const next = renderPane({ previewUrl, readiness: { ready: false, queue_position: 0 } })
    expect(next.querySelector('[role="status"]')?.textContent).toContain('You are next.')
  })
})
