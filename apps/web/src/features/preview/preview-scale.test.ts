import { describe, expect, it } from 'vitest'
import { previewScale } from './preview-scale.ts'

describe('previewScale', () => {
  it('shrinks the virtual 1024x768 page to the pane width, keeping its 4:3 shape', () => {
    expect(previewScale(256)).toEqual({ scale: 0.25, width: 256, height: 192 })
    expect(previewScale(512)).toEqual({ scale: 0.5, width: 512, height: 384 })
  })

  it('fits the unfocused and focused panes (250px and 500px less their padding)', () => {
    const narrow = previewScale(226)
    expect(narrow.width).toBeCloseTo(226)
    expect(narrow.height).toBeCloseTo(169.5)
    const wide = previewScale(476)
    expect(wide.scale).toBeCloseTo(0.4648, 4)
    expect(wide.height / wide.width).toBeCloseTo(0.75)
  })

  it('never enlarges the page beyond its virtual size', () => {
    expect(previewScale(2048)).toEqual({ scale: 1, width: 1024, height: 768 })
  })

  it('takes no room before the pane has been measured', () => {
    expect(previewScale(0)).toEqual({ scale: 0, width: 0, height: 0 })
    expect(previewScale(Number.NaN)).toEqual({ scale: 0, width: 0, height: 0 })
  })
})
