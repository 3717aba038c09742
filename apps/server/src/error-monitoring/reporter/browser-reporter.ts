/**
 * The error reporter injected into every preview and deployed page (decision 016), configured by
 * its script tag's `data-dsn` and `data-environment`. Envelopes go to the page's own origin
 * (`/__sprout/envelope`) so CORS and ad blockers do not drop them.
 */
import {
  captureConsoleIntegration,
  captureException,
  captureMessage,
  init,
  withScope,
} from '@sentry/browser'

/** docs/product/error-monitoring.md "Error reporting defaults". */
const maxBreadcrumbs = 100
const transportBufferSize = 64

const script = document.currentScript as HTMLScriptElement | null
const dsn = script?.dataset.dsn
// A preview page says when it was served: reports of a page that Sprout's own failure broke
// (its dev server restarting) are not the app's (docs/product/error-monitoring.md).
const served = script?.dataset.served

if (dsn) {
  init({
    dsn,
    tunnel: served
      ? `/__sprout/envelope?served=${encodeURIComponent(served)}`
      : '/__sprout/envelope',
    environment: script?.dataset.environment ?? 'production',
    release: script?.dataset.release || undefined,
    maxBreadcrumbs,
    transportOptions: { bufferSize: transportBufferSize },
    beforeSend: (event) => {
      tellBuilder()
      return event
    },
    // Uncaught errors and unhandled rejections come with the default integrations.
    integrations: [captureConsoleIntegration({ levels: ['error'] })],
  })
  reportFailedModuleLoads()
  reportViteOverlay()
}

/**
 * In the builder, the preview tells the page around it that an error is on its way, so the error
 * list shows 'New error arriving…' and reads it at once (docs/product/error-monitoring.md). Only
 * that it happened crosses: nothing of the error.
 */
function tellBuilder() {
  if (script?.dataset.environment !== 'preview' || window.parent === window) return
  window.parent.postMessage('sprout-reporter:error', '*')
}

/** A `<script>` or stylesheet that does not load fires `error` on the element, not on window. */
function reportFailedModuleLoads() {
  window.addEventListener(
    'error',
    (event) => {
      const element = event.target
      if (element instanceof HTMLScriptElement && element.src) {
        captureMessage(`Failed to load module script ${element.src}`, 'error')
      } else if (element instanceof HTMLLinkElement && element.rel === 'stylesheet') {
        captureMessage(`Failed to load stylesheet ${element.href}`, 'error')
      }
    },
    true,
  )
}

/**
 * Vite shows a compile error (a syntax error the agent wrote) in its `<vite-error-overlay>`
 * element, whose shadow root is open: each overlay shown becomes an error event.
 */
function reportViteOverlay() {
  const reported = new WeakSet<Element>()
  const report = (overlay: Element) => {
    if (reported.has(overlay)) return
    reported.add(overlay)
    // The overlay fills its shadow root in its constructor, already done when it is attached.
    const read = (selector: string) =>
      overlay.shadowRoot?.querySelector(selector)?.textContent?.trim() ?? ''
    const message = read('.message-body') || 'Vite reported a compile error'
    const error = new Error(message.split('\n')[0])
    error.name = 'ViteCompileError'
    withScope((scope) => {
      scope.setTag('vite', 'compile-error')
      scope.setContext('vite', {
        message,
        file: read('.file'),
        plugin: read('.plugin'),
        frame: read('.frame'),
      })
      scope.setFingerprint(['vite-compile-error', read('.file') || message])
      captureException(error)
    })
  }
  const observer = new MutationObserver((mutations) => {
    for (const mutation of mutations) {
      for (const node of mutation.addedNodes) {
        if (node instanceof Element && node.localName === 'vite-error-overlay') report(node)
      }
    }
  })
  const start = () => {
    observer.observe(document.documentElement, { childList: true, subtree: true })
    for (const overlay of document.querySelectorAll('vite-error-overlay')) report(overlay)
  }
  if (document.documentElement) start()
  else document.addEventListener('DOMContentLoaded', start)
}
