import { describe, expect, it } from 'vitest'
import { nameFromPrompt, slugFor } from './service.ts'

describe('application names from the description', () => {
  it('takes the first words without a dangling connector', () => {
    expect(nameFromPrompt('A recipe tracker with favourites and a shopping list')).toBe(
      'A recipe tracker with favourites',
    )
    expect(nameFromPrompt('todo list for my team, with due dates')).toBe('Todo list for my team')
    expect(nameFromPrompt('and')).toBe('And')
  })

  it('makes a host-safe slug with a random suffix', () => {
    expect(slugFor('Café Übersicht!')).toMatch(/^cafe-ubersicht-[0-9a-f]{6}$/)
    expect(slugFor('***')).toMatch(/^app-[0-9a-f]{6}$/)
  })
})
