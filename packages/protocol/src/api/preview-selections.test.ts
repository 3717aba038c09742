import { describe, expect, it } from 'vitest'
import {
  type PreviewSelection,
  readSelectionsText,
  readSourceAttribute,
  selectionsText,
} from './preview-selections.ts'

const button: PreviewSelection = {
  file: 'src/components/GuestList.tsx',
  line: 14,
  column: 7,
  tag: 'button',
  snippet: '<button class="x">\n  Sign\n</button>',
}

describe('preview selections', () => {
  it('reads the plugin attribute, and nothing outside the app', () => {
    expect(readSourceAttribute('src/App.tsx:14:7')).toEqual({
      file: 'src/App.tsx',
      line: 14,
      column: 7,
    })
    expect(readSourceAttribute('../App.tsx:14:7')).toBeUndefined()
    expect(readSourceAttribute('/src/App.tsx:14:7')).toBeUndefined()
    expect(readSourceAttribute('src/App.tsx:0:7')).toBeUndefined()
    expect(readSourceAttribute('src/App.tsx')).toBeUndefined()
  })

  it('says each selection on a line after the text, and reads them back', () => {
    const text = `Make it bigger${selectionsText([button, { ...button, tag: 'li', line: 3, snippet: '' }])}`
    expect(text).toBe(
      'Make it bigger\n\nThe user selected in the preview:\n' +
        '- <button> at src/components/GuestList.tsx:14 — <button class="x"> Sign </button>\n' +
        '- <li> at src/components/GuestList.tsx:3',
    )
    expect(readSelectionsText(text)).toEqual([
      { tag: 'button', file: 'src/components/GuestList.tsx', line: 14 },
      { tag: 'li', file: 'src/components/GuestList.tsx', line: 3 },
    ])
    expect(selectionsText([])).toBe('')
    expect(readSelectionsText('- <button> at src/App.tsx:1')).toEqual([])
  })
})
