import { describe, expect, it } from 'vitest'
import { csvField, toCsv } from './evaluation-csv.ts'

describe('toCsv', () => {
  it('writes a header and rows with CRLF line ends', () => {
    expect(toCsv(['a', 'b'], [['1', 2]])).toBe('a,b\r\n1,2\r\n')
  })

  it('quotes fields holding commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvField('one, two')).toBe('"one, two"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('line\nbreak')).toBe('"line\nbreak"')
    expect(csvField('carriage\rreturn')).toBe('"carriage\rreturn"')
    expect(csvField('plain')).toBe('plain')
  })

  it("prefixes cells starting with = + - @ with ' against formula injection", () => {
    expect(csvField('=SUM(A1:A9)')).toBe("'=SUM(A1:A9)")
    expect(csvField('+1')).toBe("'+1")
    expect(csvField('-2')).toBe("'-2")
    expect(csvField('@cmd')).toBe("'@cmd")
    // The prefix comes first, then the quoting of the whole field.
    expect(csvField('=HYPERLINK("x", "y")')).toBe(`"'=HYPERLINK(""x"", ""y"")"`)
    expect(csvField('a=b')).toBe('a=b')
  })

  it('writes empty fields for null and undefined', () => {
    expect(toCsv(['x', 'y', 'z'], [[null, undefined, 0]])).toBe('x,y,z\r\n,,0\r\n')
  })
})
