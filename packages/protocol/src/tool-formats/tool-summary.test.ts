import { describe, expect, it } from 'vitest'
import { shortenPath, summarizeToolCall } from './tool-summary.ts'

describe('shortenPath', () => {
  it('keeps paths up to 40 characters', () => {
    const path = 'src/components/buttons/PrimaryButton.tsx'
    expect(path).toHaveLength(40)
    expect(shortenPath(path)).toBe(path)
  })

  it('keeps the tail of longer paths from a folder boundary', () => {
    expect(shortenPath('src/features/dashboard/components/widgets/RevenueChart.tsx')).toBe(
      '.../components/widgets/RevenueChart.tsx',
    )
    expect(shortenPath('src/features/dashboard/components/widgets/RevenueChart.tsx').length).toBe(
      39,
    )
  })

  it('cuts a long file name without folders', () => {
    const name = `${'a'.repeat(50)}.ts`
    expect(shortenPath(name)).toBe(`...${name.slice(-37)}`)
  })
})

describe('summarizeToolCall', () => {
  it('summarises file tools', () => {
    expect(summarizeToolCall('write_file', { path: 'src/App.tsx', content: 'x' })).toBe(
      'Write: src/App.tsx',
    )
    expect(summarizeToolCall('view_file', { path: 'package.json' })).toBe('Read: package.json')
    expect(summarizeToolCall('delete_file', { path: 'old.ts' })).toBe('Delete: old.ts')
    expect(summarizeToolCall('list_files', { path: 'src' })).toBe('List: src')
    expect(summarizeToolCall('list_files', {})).toBe('List: .')
    expect(summarizeToolCall('server_logs', { lines: 50 })).toBe('Server logs')
  })

  it('shortens long paths', () => {
    expect(
      summarizeToolCall('view_file', {
        path: 'src/features/dashboard/components/widgets/RevenueChart.tsx',
      }),
    ).toBe('Read: .../components/widgets/RevenueChart.tsx')
  })

  it('counts added and removed lines of an edit', () => {
    expect(
      summarizeToolCall('str_replace', {
        path: 'src/App.tsx',
        old_str: 'a\nb\nc',
        new_str: 'a\nB\nC\nd',
      }),
    ).toBe('Edit: src/App.tsx (+3 -2)')
    expect(summarizeToolCall('str_replace', { path: 'src/App.tsx' })).toBe('Edit: src/App.tsx')
  })

  it('shows shell commands with their timeout, 5 s by default', () => {
    expect(summarizeToolCall('shell_exec', { command: 'npm test', timeout: 60 })).toBe(
      '$ (60s) npm test',
    )
    expect(summarizeToolCall('shell_exec', { command: 'ls -la' })).toBe('$ (5s) ls -la')
    expect(summarizeToolCall('shell_exec', { command: 'cd src\nls' })).toBe('$ (5s) cd src ...')
  })

  it('summarises searches', () => {
    expect(
      summarizeToolCall('search', { pattern: 'useState', path: 'src', file_type: 'tsx' }),
    ).toBe('Search: useState in src (*.tsx)')
    expect(summarizeToolCall('search', { pattern: 'TODO', file_type: '*.ts' })).toBe(
      'Search: TODO (*.ts)',
    )
    expect(summarizeToolCall('web_search', { query: 'vite 8 release' })).toBe(
      'Web search: vite 8 release',
    )
  })

  it('summarises the other known tools', () => {
    expect(summarizeToolCall('roll_dice', {})).toBe('Roll 1d6')
    expect(summarizeToolCall('roll_dice', { count: 2, sides: 20 })).toBe('Roll 2d20')
    expect(summarizeToolCall('add_random', { num: 5 })).toBe('Add random: 5')
    expect(summarizeToolCall('get_time', {})).toBe('Get time')
    expect(summarizeToolCall('todos', { tasks: [] })).toBe('Tasks')
    expect(summarizeToolCall('error_reports_update', { action: 'resolve', group_id: 'g1' })).toBe(
      'Resolve error: g1',
    )
    expect(summarizeToolCall('run_checks', {})).toBe('Run checks')
    expect(summarizeToolCall('integration_guide', { integration: 'Stripe' })).toBe(
      'Stripe Integration Guide',
    )
    expect(summarizeToolCall('integration_guide', { integration: 'linear' })).toBe(
      'Linear Integration Guide',
    )
  })

  it('falls back to the tool name for unknown tools and odd inputs', () => {
    expect(summarizeToolCall('deploy_app', { target: 'prod' })).toBe('deploy_app')
    expect(summarizeToolCall('view_file', null)).toBe('Read: ')
  })
})
