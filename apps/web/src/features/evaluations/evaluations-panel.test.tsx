import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { adminConversation, fakeEvaluations } from '../../testing/fake-evaluations.ts'
import { buttonNamed, cleanup, click, pageText, until } from '../../testing/render.tsx'
import { renderScreen } from '../../testing/render-screen.tsx'
import { ModelSelector } from '../models/model-selector.tsx'
import { useModels } from '../models/use-models.ts'
import { useSelectedModel } from '../models/use-selected-model.ts'
import { EvaluationsPanel } from './evaluations-panel.tsx'

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  vi.useRealTimers()
})

const checkbox = (label: string) => {
  const found = document.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`)
  if (!found) throw new Error(`No checkbox ${label}`)
  return found
}
const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]')

function setValue(element: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const prototype = Object.getPrototypeOf(element)
  act(() => {
    Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(element, value)
    element.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

/** As the admin route composes it: the judge picked with the product's model selector. */
function PanelWithJudge() {
  const models = useModels()
  const [model, setModel] = useSelectedModel(models.data)
  const picker = <ModelSelector models={models.data ?? []} value={model} onChange={setModel} />
  return <EvaluationsPanel judge={{ model, picker }} />
}

describe('EvaluationsPanel', () => {
  it('lists conversations with their columns and loads more pages', async () => {
    const fake = fakeEvaluations([
      [adminConversation(1), adminConversation(2)],
      [adminConversation(3)],
    ])
    renderScreen(<PanelWithJudge />)
    await until(() => pageText().includes('Conversation 2'))
    const headers = [...document.querySelectorAll('th')].map((cell) => cell.textContent)
    expect(headers.slice(1)).toEqual(['Title', 'Organization', 'App', 'Messages', 'Created'])
    const row = document.querySelector('tr[aria-label="Conversation 1"]')?.textContent ?? ''
    // The organization's name, not its slug (issue 20: personal ones showed `personal-<id>`).
    expect(row).toContain('Acme Corp')
    expect(row).not.toContain('acme')
    expect(row).toContain('Counter')
    expect(row).toContain('2')
    expect(fake.callsTo('/api/admin/conversations')[0]?.url).toContain('limit=100')

    click(buttonNamed('Load More'))
    await until(() => pageText().includes('Conversation 3'))
    expect(fake.callsTo('/api/admin/conversations')[1]?.url).toContain('cursor=1')
    expect(() => buttonNamed('Load More')).toThrow()
  })

  it('configures, starts, shows the progress, then results that export and reset', async () => {
    const fake = fakeEvaluations([
      [adminConversation(1), adminConversation(2), adminConversation(3)],
    ])
    renderScreen(<PanelWithJudge />)
    await until(() => pageText().includes('Conversation 3'))
    expect(buttonNamed('Evaluate').disabled).toBe(true)
    click(checkbox('Select Conversation 1'))
    click(checkbox('Select Conversation 3'))
    expect(pageText()).toContain('2 selected')
    click(buttonNamed('Evaluate'))
    await until(() => Boolean(dialog()?.textContent?.includes('eval_outcome')))
    expect(dialog()?.textContent).toContain('2 conversations selected')

    // Custom mode needs a prompt; the limit is 1 to 10.
    click(dialog()?.querySelectorAll('input[type="radio"]')[1])
    click(buttonNamed('Start Evaluation'))
    expect(dialog()?.textContent).toContain('A custom prompt is required')
    // Back to a template: the custom prompt's problem no longer applies.
    click(dialog()?.querySelectorAll('input[type="radio"]')[0])
    expect(dialog()?.textContent).not.toContain('A custom prompt is required')
    const limit = dialog()?.querySelector<HTMLInputElement>('input[type="number"]')
    if (!limit) throw new Error('No limit field')
    expect(limit.value).toBe('3')
    setValue(limit, '11')
    click(buttonNamed('Start Evaluation'))
    expect(dialog()?.textContent).toContain('Concurrent limit must be a number from 1 to 10')
    setValue(limit, '4')
    await until(() => dialog()?.textContent?.includes('Demo') ?? false)
    click(buttonNamed('Start Evaluation'))

    await until(() => pageText().includes('0 / 2 complete'))
    expect(fake.callsTo('/api/admin/conversation-evals', 'POST')[0]?.body).toEqual({
      conversation_ids: ['conversation-1', 'conversation-3'],
      concurrent_limit: 4,
      prompt_template: 'eval_conversation_challenges',
      model: 'demo',
    })
    await until(() => fake.callsTo('/start', 'POST').length === 1)

    for (let step = 0; step < 4; step++) fake.advance()
    await act(async () => {
      vi.advanceTimersByTime(2_000)
    })
    await until(() => pageText().includes('2 / 2 complete'))
    await until(() => pageText().includes('Export CSV'))
    const results = document.querySelector('[aria-label="Evaluation results"]')
    expect(results?.querySelectorAll('li')).toHaveLength(2)
    // The markdown summary is rendered: the heading and bold as text, not as marks.
    expect(results?.textContent).toContain('Untitled Conversation')
    expect(results?.textContent).toContain('Acme Corp')
    expect(results?.textContent).not.toContain('acme')
    expect(results?.textContent).toContain('Outcome: built = 1+1')
    expect(results?.querySelector('strong')?.textContent).toBe('Outcome')

    const saved: { name: string; text: Promise<string> }[] = []
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved.push({ name: '', text: (blob as Blob).text() })
      return 'blob:fake'
    })
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      const last = saved.at(-1)
      if (last) last.name = this.download
    })
    click(buttonNamed('Export CSV'))
    click(buttonNamed('Export JSON'))
    expect(saved.map((file) => file.name)).toEqual([
      'evaluation-eval-1.csv',
      'evaluation-eval-1.json',
    ])
    const csv = await saved[0]?.text
    expect(csv?.split('\r\n')[0]).toBe(
      'conversation_id,conversation_title,org_slug,summary,processing_time_ms',
    )
    expect(csv).toContain('conversation-1,,acme,"## Untitled\n**Outcome**: built = 1+1",1500\r\n')
    const json = JSON.parse((await saved[1]?.text) ?? '')
    expect(json[1]).toEqual({
      conversation_id: 'conversation-3',
      conversation_title: 'Conversation 1',
      org_slug: 'acme',
      summary: '## Conversation 1\n**Outcome**: built = 1+1',
      processing_time_ms: 1500,
    })

    click(buttonNamed('New Evaluation'))
    await until(() => pageText().includes('0 selected'))
    expect(checkbox('Select Conversation 1').checked).toBe(false)
  })
})
