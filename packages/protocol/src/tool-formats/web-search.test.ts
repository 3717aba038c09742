import { describe, expect, it } from 'vitest'
import { parseWebSearchResults, webSearchResultTitle } from './web-search.ts'

describe('web_search output', () => {
  it('reads results from an array or an object', () => {
    const results = [{ url: 'https://vite.dev', title: 'Vite' }, { url: 'https://a.dev' }]
    expect(parseWebSearchResults(results)).toEqual(results)
    expect(parseWebSearchResults({ results })).toEqual(results)
  })

  it('skips malformed entries and other outputs', () => {
    expect(parseWebSearchResults([{ title: 'no url' }, 'x', { url: 'https://b.dev' }])).toEqual([
      { url: 'https://b.dev' },
    ])
    expect(parseWebSearchResults('No results')).toEqual([])
    expect(parseWebSearchResults(null)).toEqual([])
  })

  it("titles untitled results 'Untitled'", () => {
    expect(webSearchResultTitle({ url: 'x' })).toBe('Untitled')
    expect(webSearchResultTitle({ url: 'x', title: ' ' })).toBe('Untitled')
    expect(webSearchResultTitle({ url: 'x', title: 'Vite' })).toBe('Vite')
  })
})
