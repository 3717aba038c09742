import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render } from '../testing/render.tsx'
import { type ListMove, listIndexAfter, useListKeyboard } from './use-list-keyboard.ts'

afterEach(cleanup)

function List(props: {
  onMove: (move: ListMove) => void
  onTab: () => void
  onChoose?: () => void
}) {
  const onKeyDown = useListKeyboard(props)
  return <div role="listbox" aria-label="Things" tabIndex={-1} onKeyDown={onKeyDown} />
}

function press(target: Element, key: string): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true })
  act(() => {
    target.dispatchEvent(event)
  })
  return event
}

describe('listIndexAfter', () => {
  it('steps and wraps around the ends, and jumps with first and last', () => {
    expect(listIndexAfter(0, 3, 1)).toBe(1)
    expect(listIndexAfter(2, 3, 1)).toBe(0)
    expect(listIndexAfter(0, 3, -1)).toBe(2)
    expect(listIndexAfter(1, 3, 'first')).toBe(0)
    expect(listIndexAfter(1, 3, 'last')).toBe(2)
  })

  it('from no current item (-1) a step down lands on the first item, a step up on the last', () => {
    expect(listIndexAfter(-1, 3, 1)).toBe(0)
    expect(listIndexAfter(-1, 3, -1)).toBe(2)
  })
})

describe('useListKeyboard', () => {
  it('moves with the arrows, Home and End, and keeps the page from scrolling', () => {
    const onMove = vi.fn()
    const list = render(<List onMove={onMove} onTab={vi.fn()} />).firstElementChild!
    const moves = ['ArrowDown', 'ArrowUp', 'Home', 'End'].map((key) => press(list, key))
    expect(onMove.mock.calls).toEqual([[1], [-1], ['first'], ['last']])
    expect(moves.every((event) => event.defaultPrevented)).toBe(true)
  })

  it('lets Tab move the focus on', () => {
    const onTab = vi.fn()
    const list = render(<List onMove={vi.fn()} onTab={onTab} />).firstElementChild!
    expect(press(list, 'Tab').defaultPrevented).toBe(false)
    expect(onTab).toHaveBeenCalledOnce()
  })

  it('chooses with Enter and Space only when the list asks for it', () => {
    const onChoose = vi.fn()
    const withChoose = render(<List onMove={vi.fn()} onTab={vi.fn()} onChoose={onChoose} />)
    expect(press(withChoose.firstElementChild!, 'Enter').defaultPrevented).toBe(true)
    expect(press(withChoose.firstElementChild!, ' ').defaultPrevented).toBe(true)
    expect(onChoose).toHaveBeenCalledTimes(2)

    const withoutChoose = render(<List onMove={vi.fn()} onTab={vi.fn()} />)
    expect(press(withoutChoose.firstElementChild!, 'Enter').defaultPrevented).toBe(false)
  })
})
