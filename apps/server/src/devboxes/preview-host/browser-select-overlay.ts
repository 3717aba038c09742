/**
 * The Select overlay injected into preview pages only, never deployed ones (docs/product/builder.md
 * "Select mode"): while the builder has Select mode on, hovering outlines the element the starters'
 * Vite plugin tagged with `data-sprout-source`, and a click tells the builder which one it was
 * instead of reaching the app. It talks only to the product's origin (`data-product-origin`).
 */
import {
  SELECT_MESSAGE_SOURCE,
  type SelectModeMessage,
  type SelectOverlayMessage,
} from '@sprout/protocol/preview/select-messages.ts'

const sourceAttribute = 'data-sprout-source'
const snippetMax = 300
/** The app's own presses and keys that Select mode keeps from it. */
const swallowedEvents = [
  'pointerdown',
  'pointerup',
  'mousedown',
  'mouseup',
  'click',
  'dblclick',
  'auxclick',
  'contextmenu',
  'submit',
] as const

const script = document.currentScript as HTMLScriptElement | null
const productOrigin = script?.dataset.productOrigin
if (productOrigin && window.parent !== window) startOverlay(productOrigin)

function startOverlay(origin: string) {
  let on = false
  let hovered: Element | undefined
  const outline = createOutline()
  const post = (message: SelectOverlayMessage) => window.parent.postMessage(message, origin)

  const show = (element: Element | undefined) => {
    hovered = element
    if (!element) {
      outline.root.style.display = 'none'
      return
    }
    const box = element.getBoundingClientRect()
    Object.assign(outline.root.style, {
      display: 'block',
      left: `${box.left}px`,
      top: `${box.top}px`,
      width: `${box.width}px`,
      height: `${box.height}px`,
    })
    const source = element.getAttribute(sourceAttribute) ?? ''
    outline.label.textContent = `${element.localName} · ${source.replace(/:\d+$/, '')}`
    // Under the box when there is no room above it.
    outline.label.style.top = box.top < 22 ? `${box.height + 2}px` : '-22px'
  }

  const tagged = (target: EventTarget | null) =>
    target instanceof Element ? (target.closest(`[${sourceAttribute}]`) ?? undefined) : undefined

  const onMove = (event: PointerEvent) => show(tagged(event.target))
  const onScroll = () => show(hovered)
  const onSwallowed = (event: Event) => {
    event.preventDefault()
    event.stopImmediatePropagation()
    if (event.type !== 'click') return
    const element = tagged(event.target)
    if (!element) return
    post({
      source: SELECT_MESSAGE_SOURCE,
      type: 'selected',
      location: element.getAttribute(sourceAttribute) ?? '',
      tag: element.localName,
      snippet: snippetOf(element),
    })
  }
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return
    event.preventDefault()
    event.stopImmediatePropagation()
    setMode(false)
    post({ source: SELECT_MESSAGE_SOURCE, type: 'exit' })
  }

  const setMode = (next: boolean) => {
    if (next === on) return
    on = next
    const change = (next ? window.addEventListener : window.removeEventListener).bind(window)
    change('pointermove', onMove as EventListener, true)
    change('scroll', onScroll, true)
    change('keydown', onKey as EventListener, true)
    for (const type of swallowedEvents) change(type, onSwallowed, true)
    if (next) document.documentElement.append(outline.root, outline.cursor)
    else {
      outline.root.remove()
      outline.cursor.remove()
      show(undefined)
    }
  }

  window.addEventListener('message', (event: MessageEvent) => {
    if (event.origin !== origin || event.source !== window.parent) return
    const data = event.data as Partial<SelectModeMessage> | null
    if (data?.source !== SELECT_MESSAGE_SOURCE || data.type !== 'mode') return
    setMode(data.on === true)
  })
  post({ source: SELECT_MESSAGE_SOURCE, type: 'ready' })
}

/** The outline and its label, and a crosshair for the whole page while the mode is on. */
function createOutline() {
  const root = document.createElement('div')
  root.setAttribute('data-sprout-select-outline', '')
  Object.assign(root.style, {
    position: 'fixed',
    zIndex: '2147483647',
    pointerEvents: 'none',
    boxSizing: 'border-box',
    border: '2px solid #059669',
    background: 'rgba(16, 185, 129, 0.12)',
    borderRadius: '3px',
    display: 'none',
  })
  const label = document.createElement('div')
  Object.assign(label.style, {
    position: 'absolute',
    left: '-2px',
    whiteSpace: 'nowrap',
    font: '500 12px/18px ui-sans-serif, system-ui, sans-serif',
    color: '#fff',
    background: '#059669',
    padding: '1px 6px',
    borderRadius: '3px',
  })
  root.append(label)
  const cursor = document.createElement('style')
  cursor.textContent = '*{cursor:crosshair !important}'
  return { root, label, cursor }
}

/** `<button class="…">Sign the book</button>`: the opening tag and the text, cut to 300 characters. */
function snippetOf(element: Element): string {
  const shallow = element.cloneNode(false) as Element
  shallow.removeAttribute(sourceAttribute)
  const html = shallow.outerHTML
  const closing = `</${element.localName}>`
  const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim()
  const whole = html.endsWith(closing) ? `${html.slice(0, -closing.length)}${text}${closing}` : html
  return whole.length > snippetMax ? `${whole.slice(0, snippetMax - 1)}…` : whole
}
