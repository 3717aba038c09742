import type { Model } from '@sprout/protocol/models.ts'
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render as renderInto, rerender } from '../../testing/render.tsx'
import { ModelSelector } from './model-selector.tsx'
import { useSelectedModel } from './use-selected-model.ts'

function model(overrides: Partial<Model> & Pick<Model, 'model' | 'name' | 'provider'>): Model {
  return {
    description: `${overrides.name} description`,
    performance: 3,
    speed: 3,
    reasoning: 3,
    inputPrice: 1,
    outputPrice: 5,
    cacheReadPrice: 0.1,
    cacheWritePrice: 1.25,
    contextWindow: 200_000,
    images: true,
    available: true,
    ...overrides,
  }
}

const catalogue: Model[] = [
  model({ model: 'demo', name: 'Demo', provider: 'demo', inputPrice: 0, outputPrice: 0 }),
  model({ model: 'grok-4', name: 'Grok 4', provider: 'xai' }),
  model({
    model: 'gpt-5',
    name: 'GPT-5',
    provider: 'openai',
    available: false,
    unavailableReason: 'Set OPENAI_API_KEY to use this model.',
  }),
  model({
    model: 'claude-sonnet-4-5',
    name: 'Claude Sonnet 4.5',
    provider: 'anthropic',
    performance: 5,
    speed: 3,
    reasoning: 4,
    inputPrice: 3,
    outputPrice: 15,
    cacheReadPrice: 0.3,
    cacheWritePrice: 3.75,
  }),
  model({ model: 'claude-haiku-4-5', name: 'Claude Haiku 4.5', provider: 'anthropic' }),
  model({
    model: 'llama3',
    name: 'llama3',
    provider: 'openai-compatible',
    cacheReadPrice: 0,
    cacheWritePrice: 0,
  }),
]

let container: HTMLElement | undefined

beforeEach(() => {
  window.localStorage.clear()
})

afterEach(() => {
  cleanup()
  container = undefined
})

/** Renders the first element of a test, then changes its props. */
function render(element: React.ReactNode) {
  if (container) rerender(container, element)
  else container = renderInto(element)
}

const shown = () => {
  if (!container) throw new Error('Nothing rendered yet')
  return container
}

const button = () => shown().querySelector<HTMLButtonElement>('button[aria-haspopup="listbox"]')!
const listbox = () => shown().querySelector<HTMLElement>('[role="listbox"]')
const option = (name: string) =>
  Array.from(shown().querySelectorAll<HTMLElement>('[role="option"]')).find((element) =>
    element.textContent?.startsWith(name),
  )!
const details = () => shown().querySelector<HTMLElement>('[data-testid="model-details"]')!

function open() {
  act(() => button().click())
}

function press(target: EventTarget, key: string) {
  act(() => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }))
  })
}

function hover(element: HTMLElement) {
  // React derives onMouseEnter from mouseover/mouseout.
  act(() => {
    element.dispatchEvent(new MouseEvent('mouseover', { bubbles: true, relatedTarget: null }))
  })
}

describe('ModelSelector', () => {
  it('labels the button with the short name of the chosen model, else "Model"', () => {
    render(<ModelSelector models={catalogue} value="claude-sonnet-4-5" onChange={() => {}} />)
    expect(button().textContent).toBe('Sonnet')
    render(<ModelSelector models={catalogue} value="grok-4" onChange={() => {}} />)
    expect(button().textContent).toBe('Grok4')
    render(<ModelSelector models={catalogue} value="llama3" onChange={() => {}} />)
    expect(button().textContent).toBe('Model')
  })

  it('groups models by provider: Anthropic, OpenAI, xAI, then local and Demo', () => {
    render(<ModelSelector models={catalogue} value="claude-haiku-4-5" onChange={() => {}} />)
    expect(listbox()).toBeNull()
    open()
    const groups = Array.from(shown().querySelectorAll('[role="group"]'))
    const labels = groups.map((group) => {
      const labelId = group.getAttribute('aria-labelledby')!
      return shown().querySelector(`[id="${labelId}"]`)?.textContent
    })
    expect(labels).toEqual(['Anthropic', 'OpenAI', 'xAI', 'Local (OpenAI-compatible)', 'Demo'])
    expect(groups[0]?.querySelectorAll('[role="option"]')).toHaveLength(2)
  })

  it('shows description, ratings out of 5 and prices per million tokens on hover', () => {
    render(<ModelSelector models={catalogue} value="claude-haiku-4-5" onChange={() => {}} />)
    open()
    hover(option('Claude Sonnet 4.5'))
    const text = details().textContent
    expect(text).toContain('Claude Sonnet 4.5 description')
    const ratings = Array.from(details().querySelectorAll('[role="img"]')).map((element) =>
      element.getAttribute('aria-label'),
    )
    expect(ratings).toEqual([
      'Performance: 5 out of 5',
      'Speed: 3 out of 5',
      'Reasoning: 4 out of 5',
    ])
    expect(details().querySelectorAll('[data-rating="5"] span')).toHaveLength(5)
    expect(text).toContain('Input$3')
    expect(text).toContain('Output$15')
    expect(text).toContain('Cache Read$0.30')
    expect(text).toContain('Cache Write$3.75')
  })

  it("shows 'N/A' for a price of zero", () => {
    render(<ModelSelector models={catalogue} value="claude-haiku-4-5" onChange={() => {}} />)
    open()
    hover(option('llama3'))
    expect(details().textContent).toContain('Cache ReadN/A')
    expect(details().textContent).toContain('Cache WriteN/A')
    expect(details().textContent).toContain('Input$1')
  })

  it('shows unavailable models disabled with their reason, and ignores clicks on them', () => {
    const onChange = vi.fn()
    render(<ModelSelector models={catalogue} value="claude-haiku-4-5" onChange={onChange} />)
    open()
    const gpt = option('GPT-5')
    expect(gpt.getAttribute('aria-disabled')).toBe('true')
    expect(gpt.textContent).toContain('Set OPENAI_API_KEY to use this model.')
    act(() => gpt.click())
    expect(onChange).not.toHaveBeenCalled()
    expect(listbox()).not.toBeNull()
  })

  it('chooses a model on click and closes', () => {
    const onChange = vi.fn()
    render(<ModelSelector models={catalogue} value="claude-haiku-4-5" onChange={onChange} />)
    open()
    act(() => option('Grok 4').click())
    expect(onChange).toHaveBeenCalledWith('grok-4')
    expect(listbox()).toBeNull()
  })

  it('closes on Escape', () => {
    render(<ModelSelector models={catalogue} value="claude-haiku-4-5" onChange={() => {}} />)
    open()
    press(document, 'Escape')
    expect(listbox()).toBeNull()
    expect(button().getAttribute('aria-expanded')).toBe('false')
  })

  it('closes on a click outside, but not on a click inside', () => {
    render(<ModelSelector models={catalogue} value="claude-haiku-4-5" onChange={() => {}} />)
    open()
    act(() => {
      listbox()!.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }))
    })
    expect(listbox()).not.toBeNull()
    act(() => {
      document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }))
    })
    expect(listbox()).toBeNull()
  })

  it('moves through available models with the arrow keys and chooses with Enter', () => {
    const onChange = vi.fn()
    render(<ModelSelector models={catalogue} value="claude-haiku-4-5" onChange={onChange} />)
    open()
    // Order: Sonnet, Haiku (chosen), GPT-5 (unavailable, skipped), Grok 4, llama3, Demo.
    press(listbox()!, 'ArrowDown')
    expect(listbox()!.getAttribute('aria-activedescendant')).toBe(option('Grok 4').id)
    press(listbox()!, 'ArrowUp')
    press(listbox()!, 'ArrowUp')
    expect(listbox()!.getAttribute('aria-activedescendant')).toBe(option('Claude Sonnet 4.5').id)
    press(listbox()!, 'Enter')
    expect(onChange).toHaveBeenCalledWith('claude-sonnet-4-5')
  })
})

function PersistentSelector({ models }: { models: Model[] }) {
  const [selected, select] = useSelectedModel(models)
  return <ModelSelector models={models} value={selected} onChange={select} />
}

describe('useSelectedModel with the selector', () => {
  it('defaults to claude-haiku-4-5 when it is available', () => {
    render(<PersistentSelector models={catalogue} />)
    expect(button().textContent).toBe('Haiku')
  })

  it('defaults to the first available model when Haiku is not available', () => {
    const withoutHaiku = catalogue.map((entry) =>
      entry.model === 'claude-haiku-4-5' ? { ...entry, available: false } : entry,
    )
    render(<PersistentSelector models={withoutHaiku} />)
    expect(button().textContent).toBe('Demo')
  })

  it("remembers the choice in local storage under 'selectedModel'", () => {
    render(<PersistentSelector models={catalogue} />)
    open()
    act(() => option('Grok 4').click())
    expect(button().textContent).toBe('Grok4')
    expect(window.localStorage.getItem('selectedModel')).toBe('grok-4')

    cleanup()
    container = undefined
    render(<PersistentSelector models={catalogue} />)
    expect(button().textContent).toBe('Grok4')
  })

  it('ignores a remembered model that is no longer available', () => {
    window.localStorage.setItem('selectedModel', 'gpt-5')
    render(<PersistentSelector models={catalogue} />)
    expect(button().textContent).toBe('Haiku')
  })
})
