import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render } from '../testing/render.tsx'
import { MessageText } from './message-text.tsx'

afterEach(cleanup)

describe('MessageText', () => {
  it('never interprets HTML: an <img onerror> shows as text', () => {
    const container = render(
      <MessageText text={'Look: <img src=x onerror="alert(1)"> **bold**'} variant="agent" />,
    )
    expect(container.querySelector('img')).toBeNull()
    expect(container.textContent).toContain('Look: <img src=x onerror="alert(1)"> bold')
    expect(container.querySelector('strong')?.textContent).toBe('bold')
  })

  it('renders headings in bold, __italic__, `code`, code blocks and blank lines as breaks', () => {
    const container = render(
      <MessageText
        text={'## Plan\nUse __care__ and `npm test`\n\n```\n<b>raw</b>\n```'}
        variant="agent"
      />,
    )
    const paragraphs = container.querySelectorAll('p')
    expect(paragraphs[0]?.textContent).toBe('Plan')
    expect(paragraphs[0]?.className).toContain('font-bold')
    expect(container.querySelector('em')?.textContent).toBe('care')
    expect(container.querySelector('code')?.textContent).toBe('npm test')
    expect(container.querySelector('pre')?.textContent).toBe('<b>raw</b>')
    expect(container.querySelector('b')).toBeNull()
    expect(container.querySelector('[aria-hidden="true"].h-3')).not.toBeNull()
  })

  it('renders web links as links that open a new tab, and other targets as text', () => {
    const container = render(
      <MessageText
        text={
          'See [the docs](https://linear.app/developers), [tool-calls.md](../tool-calls.md) and [x](javascript:alert(1))'
        }
        variant="agent"
      />,
    )
    const links = [...container.querySelectorAll('a')]
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['the docs', 'https://linear.app/developers'],
    ])
    expect(links[0]?.getAttribute('target')).toBe('_blank')
    expect(links[0]?.getAttribute('rel')).toBe('noopener noreferrer')
    expect(container.textContent).toBe('See the docs, tool-calls.md and x)')
  })

  it('shows thinking text italic and grey', () => {
    const container = render(<MessageText text="Considering the layout" variant="thinking" />)
    const text = container.querySelector('[data-variant="thinking"]')
    expect(text?.className).toContain('italic')
    expect(text?.className).toContain('text-zinc-500')
  })

  it('strips reminders and renders nothing for the interrupted marker alone', () => {
    const stripped = render(
      <MessageText
        text={'Done.<system-reminder>secret steering</system-reminder>'}
        variant="agent"
      />,
    )
    expect(stripped.textContent).toBe('Done.')
    const hidden = render(<MessageText text="[Request interrupted by user]" variant="agent" />)
    expect(hidden.textContent).toBe('')
  })

  it('shows a compaction note as the bold hourglass line', () => {
    const container = render(
      <MessageText text={'<compacted-history>\nsummary\n</compacted-history>'} variant="agent" />,
    )
    expect(container.textContent).toBe('Compacting conversation...')
    expect(container.querySelector('p')?.className).toContain('font-bold')
    expect(container.querySelector('svg')).not.toBeNull()
  })

  it('hands secret requests to the widget renderer', () => {
    const container = render(
      <MessageText
        text={'I need a key: <secret-request key="STRIPE_KEY" />'}
        variant="agent"
        renderSecretRequest={(key) => <span data-testid="widget">{key}</span>}
      />,
    )
    expect(container.querySelector('[data-testid="widget"]')?.textContent).toBe('STRIPE_KEY')
    expect(container.textContent).not.toContain('<secret-request')
  })
})
