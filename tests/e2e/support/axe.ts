import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

/**
 * The serious and critical axe-core violations on the page, or within `include` (a CSS
 * selector), one readable line each. The preview shows the user's own application, not Sprout's
 * screens: left out.
 */
export async function seriousViolations(
  page: Page,
  screen: string,
  include?: string,
): Promise<string[]> {
  // Legacy mode runs axe in the page itself: the default opens a second page per analysis to
  // merge the frames' results, which doubled each check's time, and the one frame Sprout's
  // screens hold (the preview) is left out anyway.
  const builder = new AxeBuilder({ page }).setLegacyMode(true)
  if (include) builder.include(include)
  const results = await builder.exclude('iframe[title="Application preview"]').analyze()
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
