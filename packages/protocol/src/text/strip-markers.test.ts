import { describe, expect, it } from 'vitest'
import {
  formatCompactionNote,
  isCompactionNote,
  prepareMessageText,
  stripMarkers,
  USER_INTERRUPTED_MARKER,
} from './strip-markers.ts'

describe('stripMarkers', () => {
  it('renders nothing for exactly the interrupted marker', () => {
    expect(USER_INTERRUPTED_MARKER).toBe('[Request interrupted by user]')
    expect(prepareMessageText(USER_INTERRUPTED_MARKER)).toEqual({ kind: 'hidden' })
    expect(prepareMessageText(`  ${USER_INTERRUPTED_MARKER}\n`)).toEqual({ kind: 'hidden' })
  })

  it('removes a trailing marker and keeps the rest', () => {
    expect(prepareMessageText(`I was writing the file\n\n${USER_INTERRUPTED_MARKER}`)).toEqual({
      kind: 'text',
      text: 'I was writing the file',
    })
    expect(stripMarkers('Stopped [Request interrupted by user for tool use]')).toBe('Stopped')
  })

  it('strips system-reminder and reminder blocks anywhere', () => {
    expect(
      stripMarkers(
        'Fix the header\n\n<system-reminder>\nThe user can see the preview.\n</system-reminder>\n\nThanks',
      ),
    ).toBe('Fix the header\n\nThanks')
    expect(stripMarkers('<reminder priority="high">Use TypeScript</reminder>Add a page')).toBe(
      'Add a page',
    )
    expect(stripMarkers('<SYSTEM-REMINDER>a</SYSTEM-REMINDER>b')).toBe('b')
  })

  it('hides a reminder that is still streaming', () => {
    expect(stripMarkers('Hello <system-reminder>The user')).toBe('Hello')
  })

  it('renders nothing when only markers remain', () => {
    expect(
      prepareMessageText(`<system-reminder>x</system-reminder>\n${USER_INTERRUPTED_MARKER}`),
    ).toEqual({ kind: 'hidden' })
    expect(prepareMessageText('')).toEqual({ kind: 'hidden' })
  })

  it('leaves ordinary text alone', () => {
    expect(stripMarkers('a < b and [a link](x)\n\n\n\nkept')).toBe(
      'a < b and [a link](x)\n\n\n\nkept',
    )
  })
})

describe('compaction notes', () => {
  it('recognises the compacted-history note', () => {
    const note = formatCompactionNote('The user is building a todo app.')
    expect(note).toBe('<compacted-history>\nThe user is building a todo app.\n</compacted-history>')
    expect(isCompactionNote(note)).toBe(true)
    expect(prepareMessageText(note)).toEqual({ kind: 'compaction' })
    expect(isCompactionNote('Please compact <compacted-history>')).toBe(false)
  })
})
