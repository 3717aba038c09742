import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from '@playwright/test'
import type { AxeResults, ElementContext, RunOptions } from 'axe-core'

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

type AxeWindow = {
  axe?: { run: (context: ElementContext, options: RunOptions) => Promise<AxeResults> }
}

/**
 * The serious and critical axe-core violations on the page, or within `include` (a CSS
 * selector), one readable line each. The preview shows the user's own application, not Sprout's
 * screens: left out, and no frame is entered.
 */
export async function seriousViolations(
  page: Page,
  screen: string,
  include?: string,
): Promise<string[]> {
  // axe-core (650 KB) is evaluated once per document, not once per check as @axe-core/playwright
  // did, and only violations are detailed: the builder's 36 checks took 330 s of a 390 s test on
  // a loaded 2-core machine (docs/performance.md "2026-12-02 · session 13"). `evaluate` is not
  // bound by the page's CSP, which a script tag would be.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource)
  const results = await page.evaluate(
    ({ include }) => {
      const { axe } = window as unknown as AxeWindow
      if (!axe) throw new Error('axe-core is not loaded')
      const exclude = [['iframe[title="Application preview"]']]
      return axe.run(include ? { include: [[include]], exclude } : { exclude }, {
        iframes: false,
        resultTypes: ['violations'],
      })
    },
    { include },
  )
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${screen}: ${violation.id} (${violation.impact}) ${violation.help} at ${violation.nodes
          .map((node) => `${node.target.join(' ')} ${node.html.slice(0, 160)}`)
          .join(', ')}`,
    )
}

/** The serious and critical violations within `include` (a CSS selector). */
export function seriousViolationsIn(page: Page, screen: string, include: string) {
  return seriousViolations(page, screen, include)
}
