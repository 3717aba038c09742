import { createBlock } from '@sprout/protocol/stream/block-list.ts'
import type { Block } from '@sprout/protocol/stream/blocks-state.ts'
import { formatTasks } from '@sprout/protocol/tool-formats/tasks.ts'
import { afterEach, describe, expect, it } from 'vitest'
import { buttonWithText, cleanup, click, render } from '../../../testing/render.tsx'
import { ToolCallView } from './tool-call-view.tsx'

afterEach(cleanup)

function toolBlock(toolName: string, input: unknown, output: unknown, fields: Partial<Block> = {}) {
  return createBlock({
    id: `tool-${toolName}`,
    type: 'tool',
    role: 'assistant',
    toolName,
    toolInput: input,
    toolOutput: output,
    isComplete: true,
    isStreaming: false,
    ...fields,
  })
}

function renderOpen(block: Block) {
  const container = render(<ToolCallView block={block} />)
  const summary = container.querySelector('button[aria-expanded]')
  if (summary?.getAttribute('aria-expanded') === 'false') click(summary)
  return container
}

describe('ToolCallView', () => {
  it('shows roll_dice as CdS, each roll and the total of several dice', () => {
    const container = renderOpen(
      toolBlock('roll_dice', { count: 2, sides: 6 }, 'Rolled 2 d6 dice: [3, 5] (total: 8)'),
    )
    expect(container.textContent).toContain('Roll 2d6')
    const result = container.querySelector('[data-testid="dice-result"]')
    expect(result?.textContent).toContain('2d6')
    expect([...(result?.querySelectorAll('li') ?? [])].map((item) => item.textContent)).toEqual([
      '3',
      '5',
    ])
    expect(result?.textContent).toContain('Total: 8')
  })

  it('shows a single die without a total, 1d6 by default', () => {
    const container = renderOpen(toolBlock('roll_dice', {}, 'Rolled a d6: 4'))
    const result = container.querySelector('[data-testid="dice-result"]')
    expect(result?.textContent).toContain('1d6')
    expect(result?.textContent).not.toContain('Total')
  })

  it('shows add_random as input, random value added and result', () => {
    const container = renderOpen(
      toolBlock('add_random', { num: 5 }, 'Randomly added: 37, for a final result of: 42'),
    )
    const result = container.querySelector('[data-testid="add-random-result"]')
    const values = [...(result?.querySelectorAll('dd') ?? [])].map((value) => value.textContent)
    expect(values).toEqual(['5', '37', '42'])
    expect(result?.textContent).toContain('Random value added')
  })

  it('shows todos open, with status icons, strike-through and expandable notes', () => {
    const output = formatTasks({
      title: 'Recipe Tracker',
      tasks: [
        { id: '1', status: 'complete', title: 'Write the app', notes: 'Sections: Recipes' },
        { id: '2', status: 'incomplete', title: 'Check the files' },
        { id: '3', status: 'canceled', title: 'Add a backend' },
      ],
    })
    const container = render(<ToolCallView block={toolBlock('todos', {}, output)} />)
    expect(container.textContent).toContain('Tasks: Recipe Tracker (2/3)')
    const items = [...container.querySelectorAll('li[data-status]')]
    expect(items.map((item) => item.getAttribute('data-status'))).toEqual([
      'complete',
      'incomplete',
      'canceled',
    ])
    expect(items[0]?.querySelector('[aria-label="Complete"]')?.className).toContain('emerald')
    expect(items[0]?.querySelector('.line-through')?.textContent).toBe('Write the app')
    expect(items[1]?.querySelector('[aria-label="Incomplete"]')?.className).toContain('zinc')
    expect(items[2]?.querySelector('.line-through')?.className).toContain('decoration-red-600')
    expect(container.textContent).not.toContain('Sections: Recipes')
    click(buttonWithText(container, 'Notes'))
    expect(container.textContent).toContain('Sections: Recipes')
    // Collapsible as a whole.
    click(container.querySelector('button[aria-expanded="true"]'))
    expect(container.querySelectorAll('li[data-status]')).toHaveLength(0)
  })

  it('shows str_replace as Edit with counts and a diff with 4 lines of context', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'old', 'h', 'i'].join('\n')
    const after = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'new', 'newer', 'h', 'i'].join('\n')
    const container = renderOpen(
      toolBlock(
        'str_replace',
        { path: 'src/App.tsx', old_str: before, new_str: after },
        'Edited src/App.tsx',
      ),
    )
    expect(container.textContent).toContain('Edit: src/App.tsx (+2 -1)')
    const lines = [...container.querySelectorAll('[data-line]')]
    expect(lines.map((line) => line.getAttribute('data-line'))).toEqual([
      'context',
      'context',
      'context',
      'context',
      'removed',
      'added',
      'added',
      'context',
      'context',
    ])
    expect(lines[0]?.textContent).toBe('  d')
    expect(lines[4]?.textContent).toBe('- old')
    expect(lines[5]?.textContent).toBe('+ new')
  })

  it('shows an unknown tool with its name, input as JSON and output', () => {
    const container = renderOpen(
      toolBlock('deploy_rocket', { target: 'moon' }, { status: 'launched' }),
    )
    const view = container.querySelector('[data-testid="default-tool-view"]')
    expect(view?.textContent).toContain('deploy_rocket')
    expect(view?.textContent).toContain('"target": "moon"')
    expect(view?.textContent).toContain('"status": "launched"')
  })

  it('shows a failed tool in a red block beginning Error:', () => {
    const container = render(
      <ToolCallView
        block={toolBlock('view_file', { path: 'missing.ts' }, 'Not found: missing.ts', {
          toolIsError: true,
        })}
      />,
    )
    expect(container.textContent).toContain('Read: missing.ts')
    expect(container.querySelector('[role="alert"]')?.textContent).toBe(
      'Error: Not found: missing.ts',
    )
  })

  it('shows shell_exec with its timeout, running... while streaming and (no output)', () => {
    const running = render(
      <ToolCallView
        block={toolBlock('shell_exec', { command: 'npm test', timeout: 60 }, undefined, {
          isComplete: false,
          isStreaming: true,
        })}
      />,
    )
    expect(running.textContent).toContain('$ (60s) npm test')
    expect(running.textContent).toContain('running...')
    const empty = renderOpen(toolBlock('shell_exec', { command: 'true' }, '[exit code 0]'))
    expect(empty.textContent).toContain('$ (5s) true')
    expect(empty.textContent).toContain('(no output)')
    expect(empty.textContent).not.toContain('exit code')
  })

  it('shows the exit code of shell_exec only when it is not 0, and its notes', () => {
    const passed = renderOpen(toolBlock('shell_exec', { command: 'ls' }, 'src\n[exit code 0]'))
    expect(passed.textContent).toContain('src')
    expect(passed.textContent).not.toContain('exit code')
    const failed = renderOpen(
      toolBlock('shell_exec', { command: 'npm test' }, 'FAIL\n[exit code 1]\n[output truncated]'),
    )
    expect(failed.textContent).toContain('FAIL')
    expect(failed.textContent).toContain('exit code 1')
    expect(failed.textContent).toContain('output truncated')
    expect(failed.textContent).not.toContain('[exit code')
  })

  it('shortens long paths to their tail', () => {
    const path = 'src/components/features/dashboard/widgets/charts/RevenueChart.tsx'
    const container = render(
      <ToolCallView block={toolBlock('write_file', { path, content: 'x' }, 'Wrote 1 line')} />,
    )
    const summary = container.querySelector('button')?.textContent ?? ''
    expect(summary).toMatch(/^Write: \.\.\.\/.*RevenueChart\.tsx$/)
    expect(summary.length).toBeLessThan(50)
  })

  it('lists web search links by title, Untitled, or No results found', () => {
    const container = renderOpen(
      toolBlock('web_search', { query: 'vite' }, [
        { url: 'https://vite.dev', title: 'Vite' },
        { url: 'https://example.com' },
        { url: 'javascript:alert(1)', title: 'Bad' },
      ]),
    )
    expect(container.textContent).toContain('Web search: vite')
    const links = [...container.querySelectorAll('a')]
    expect(links.map((link) => link.textContent)).toEqual(['Vite', 'Untitled', 'Bad'])
    expect(links[2]?.getAttribute('href')).toBeNull()
    cleanup()
    const none = renderOpen(toolBlock('web_search', { query: 'nothing' }, []))
    expect(none.textContent).toContain('No results found')
  })
})
