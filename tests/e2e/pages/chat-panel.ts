import type { Locator, Page } from '@playwright/test'
import { PageObject } from './page-object.ts'

/** The chat of the builder (region 'Chat') or of an exploration (region 'Exploration chat'). */
export class ChatPanel {
  readonly page: Page
  readonly region
  readonly transcript
  readonly input
  readonly interruptButton
  readonly queued
  readonly userMessages
  readonly agentMessages
  readonly reasoning
  readonly toolCalls
  readonly error
  readonly contextUsage
  readonly notice
  readonly modelButton

  constructor(page: Page, name = 'Chat') {
    this.page = page
    this.region = page.getByRole('region', { name, exact: true })
    this.transcript = this.region.getByRole('log', { name: 'Messages' })
    this.input = this.region.getByRole('textbox', { name: 'Message' })
    this.interruptButton = this.region.getByRole('button', { name: 'Interrupt', exact: true })
    this.queued = this.region.getByRole('region', { name: 'Queued messages' })
    this.userMessages = this.transcript.getByTestId('user-message')
    this.agentMessages = this.transcript.getByTestId('agent-message')
    this.reasoning = this.transcript.getByTestId('reasoning')
    this.toolCalls = this.transcript.getByTestId('tool-call')
    this.error = this.transcript.getByTestId('chat-error')
    this.contextUsage = this.region.getByTestId('context-usage')
    this.notice = this.region.getByRole('alert')
    this.modelButton = this.region.locator('button[aria-haspopup="listbox"]')
  }

  /** The tool calls whose one-line summary matches. */
  toolCall(summary: string | RegExp): Locator {
    return this.toolCalls.filter({
      has: this.page.getByRole('button', { name: summary }),
    })
  }

  /**
   * Starts watching the queued-messages list: queued messages may be taken by the agent within
   * a moment, faster than polling can see. The returned check says whether `text` was listed.
   */
  async watchQueued(text: string): Promise<() => Promise<boolean>> {
    await this.page.evaluate((expected) => {
      const state = window as unknown as { __queuedSeen?: boolean }
      state.__queuedSeen = false
      const check = () => {
        const list = document.querySelector('section[aria-label="Queued messages"]')
        if (list?.textContent?.includes(expected)) state.__queuedSeen = true
      }
      new MutationObserver(check).observe(document.body, {
        childList: true,
        subtree: true,
        characterData: true,
      })
    }, text)
    return () =>
      this.page.evaluate(() =>
        Boolean((window as unknown as { __queuedSeen?: boolean }).__queuedSeen),
      )
  }

  /** Whether the agent is working (its interrupt button shows). */
  async isRunning(): Promise<boolean> {
    return (await this.interruptButton.count()) > 0
  }

  async send(text: string) {
    await this.input.fill(text)
    await this.input.press('Enter')
  }
}

/** The builder's conversation list (docs/product/builder.md "Conversation list"). */
export class ConversationList extends PageObject {
  readonly aside = this.page.getByRole('complementary', { name: 'Conversations' })
  readonly newConversationButton = this.aside.getByRole('button', { name: 'New Conversation' })
  readonly items = this.aside.getByRole('navigation').getByRole('button')
  readonly emptyText = this.aside.getByText('No conversations yet')

  item(title: string | RegExp): Locator {
    return this.items.filter({ hasText: title })
  }
}
