import type { Page } from '@playwright/test'

/**
 * Accepts every window.alert and keeps its text. An alert blocks the page, so a test that awaited
 * an action (which waits for the page) before accepting it would wait forever.
 */
export function collectAlerts(page: Page): string[] {
  const messages: string[] = []
  page.on('dialog', (dialog) => {
    messages.push(dialog.message())
    void dialog.accept()
  })
  return messages
}
