import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render } from '../../testing/render.tsx'
import { DeleteApplicationDialog } from './delete-application-dialog.tsx'

afterEach(cleanup)

const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]')
const button = (name: string) =>
  Array.from(dialog()?.querySelectorAll('button') ?? []).find(
    (candidate) => candidate.textContent === name,
  )

function renderDialog(props: Partial<Parameters<typeof DeleteApplicationDialog>[0]> = {}) {
  const handlers = { onConfirm: vi.fn(), onCancel: vi.fn() }
  render(<DeleteApplicationDialog name="Todo list" isDeleting={false} {...handlers} {...props} />)
  return handlers
}

describe('DeleteApplicationDialog', () => {
  it('asks about the application by name, in quotes, and warns it cannot be undone', () => {
    renderDialog()
    const text = dialog()?.textContent ?? ''
    expect(text).toContain('Are you sure you want to delete "Todo list"?')
    expect(text).toContain('This action cannot be undone.')
    expect(button('Cancel')).toBeDefined()
    expect(button('Delete')).toBeDefined()
  })

  it("reads 'Deleting...' and cannot be cancelled while busy", () => {
    const { onCancel } = renderDialog({ isDeleting: true })
    expect(button('Deleting...')?.disabled).toBe(true)
    expect(button('Cancel')?.disabled).toBe(true)
    act(() => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    })
    expect(onCancel).not.toHaveBeenCalled()
  })

  it('confirms with Delete, and cancels with Cancel or Escape', () => {
    const { onConfirm, onCancel } = renderDialog()
    act(() => button('Delete')?.click())
    expect(onConfirm).toHaveBeenCalledOnce()
    act(() => button('Cancel')?.click())
    act(() => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    })
    expect(onCancel).toHaveBeenCalledTimes(2)
  })

  it('is closed while no application is chosen', () => {
    renderDialog({ name: undefined })
    expect(dialog()).toBeNull()
  })
})
