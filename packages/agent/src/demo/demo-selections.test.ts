import { selectionsText } from '@sprout/protocol/api/preview-selections.ts'
import { describe, expect, it } from 'vitest'
import { planDemoStep } from './demo-script.ts'

const selection = {
  file: 'src/App.tsx',
  line: 14,
  column: 7,
  tag: 'button',
  snippet: '<button>Go</button>',
}

describe('the Demo model and preview selections', () => {
  it('echoes each selected element with its file and line, and calls no tool', () => {
    const userText = `Make it green${selectionsText([selection, { ...selection, tag: 'h1', line: 3 }])}`
    const step = planDemoStep({ userText, outcomes: [] }, ['write_file', 'shell_exec'])
    expect(step).toEqual({
      text: 'You pointed at the <button> in src/App.tsx:14 and the <h1> in src/App.tsx:3.',
      toolCalls: [],
    })
  })

  it('answers a message without selections as before', () => {
    const step = planDemoStep({ userText: 'Roll 2d6', outcomes: [] }, ['roll_dice'])
    expect(step.text).not.toContain('pointed at')
  })
})
