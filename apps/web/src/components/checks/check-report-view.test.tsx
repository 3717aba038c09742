import { CHECK_TEXTS } from '@sprout/protocol/api/checks.ts'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { failedReport, samplePart, sampleProblem, sampleReport } from '../../testing/fake-checks.ts'
import { buttonWithText, cleanup, click, render } from '../../testing/render.tsx'
import { CheckReportView } from './check-report-view.tsx'
import { OpenCheckProblemContext } from './open-check-problem.ts'

afterEach(cleanup)

const region = (container: HTMLElement) =>
  container.querySelector('section[aria-labelledby]') as HTMLElement

describe('the Checks block', () => {
  it('is a region headed Checks that says which part runs while it runs', () => {
    const report = sampleReport({
      state: 'running',
      finishedAt: null,
      parts: [
        samplePart('types', { status: 'passed' }),
        samplePart('build', { status: 'running' }),
        samplePart('health', { status: 'pending' }),
        samplePart('errors', { status: 'pending' }),
      ],
    })
    const container = render(<CheckReportView report={report} />)
    const section = region(container)
    const headingId = section.getAttribute('aria-labelledby') as string
    expect(document.getElementById(headingId)?.textContent).toBe(CHECK_TEXTS.title)
    expect(section.querySelector('[role="status"]')?.textContent).toBe('Checking…Build')
  })

  it("reads 'All checks passed' and still tells a skipped part's note", () => {
    const report = sampleReport({
      parts: [
        samplePart('types'),
        samplePart('build'),
        samplePart('health', { status: 'skipped', note: 'No server in this app' }),
        samplePart('errors'),
      ],
    })
    const container = render(<CheckReportView report={report} />)
    expect(container.textContent).toContain(CHECK_TEXTS.passed)
    expect(container.textContent).toContain('Server health')
    expect(container.textContent).toContain('No server in this app')
  })

  it("shows a failing acceptance test's screenshot, which opens whole", async () => {
    const report = sampleReport({
      state: 'failed',
      parts: [
        samplePart('types'),
        samplePart('acceptance', {
          problems: [
            sampleProblem({
              file: 'tests/acceptance/guest-book.spec.ts',
              line: 9,
              column: 5,
              message: 'signs the book: expect(locator).toBeVisible() failed',
              screenshot: { id: '5d0e8a4c-3f57-4a5e-9a1e-0a6b4c9d2f10', width: 1280, height: 800 },
            }),
          ],
        }),
      ],
    })
    const container = render(<CheckReportView report={report} />)
    expect(container.textContent).toContain('Acceptance tests(1)')
    const thumbnail = container.querySelector('img') as HTMLImageElement
    expect(thumbnail.getAttribute('src')).toBe('/api/images/5d0e8a4c-3f57-4a5e-9a1e-0a6b4c9d2f10')
    expect(thumbnail.alt).toBe(
      'The page when “signs the book: expect(locator).toBeVisible() failed” failed, 1280 × 800 pixels',
    )
    await act(async () => click(thumbnail.closest('button') as HTMLElement))
    const dialog = document.querySelector('dialog[open], [role="dialog"]')
    expect(dialog?.textContent).toContain('Screenshot at the failure')
  })

  it('groups the problems by part with their count, place and first line, and tells the rest', () => {
    const report = failedReport()
    const types = report.parts[0]
    if (types) types.problemCount = 5
    report.parts[1] = samplePart('build', { status: 'timed-out', note: 'Timed out after 30 s' })
    const container = render(<CheckReportView report={report} />)
    expect(container.textContent).toContain('6 problems')
    const parts = [...container.querySelectorAll('[data-testid="check-part"]')]
    expect(parts.map((part) => part.getAttribute('data-part'))).toEqual(['types', 'build'])
    expect(parts[0]?.querySelector('h4')?.textContent).toBe('Type check(5)')
    const items = [...(parts[0]?.querySelectorAll('li') ?? [])].map((item) => item.textContent)
    expect(items).toEqual([
      "src/App.tsx:12:5Type 'number' is not assignable to type 'string'.",
      "src/App.tsx:20:3Cannot find name 'count'.",
    ])
    expect(parts[0]?.textContent).toContain('+3 more')
    expect(parts[1]?.textContent).toContain('Timed out after 30 s')
  })

  it("opens a problem's file in the Code tab inside the builder", () => {
    const openProblem = vi.fn()
    const container = render(
      <OpenCheckProblemContext.Provider value={openProblem}>
        <CheckReportView report={failedReport()} />
      </OpenCheckProblemContext.Provider>,
    )
    click(buttonWithText(container, "Cannot find name 'count'."))
    expect(openProblem).toHaveBeenCalledWith(
      expect.objectContaining({ file: 'src/App.tsx', line: 20, column: 3 }),
    )
  })

  it('expands a problem to its full text elsewhere, and from the keyboard', () => {
    const container = render(<CheckReportView report={failedReport()} />)
    const button = buttonWithText(container, "Type 'number'")
    expect(button.getAttribute('aria-expanded')).toBe('false')
    act(() => button.focus())
    expect(document.activeElement).toBe(button)
    // A native button: Enter and Space click it.
    click(button)
    expect(button.getAttribute('aria-expanded')).toBe('true')
    const text = document.getElementById(button.getAttribute('aria-controls') as string)
    expect(text?.textContent).toContain("The expected type comes from property 'title'.")
  })

  it('shows a problem without a file as its message, expanding to its text', () => {
    const report = sampleReport({
      state: 'failed',
      parts: [
        samplePart('errors', {
          problems: [
            sampleProblem({
              file: null,
              line: null,
              column: null,
              message: 'TypeError: items is undefined',
              text: 'TypeError: items is undefined\n    at List (src/List.tsx:4:9)',
            }),
          ],
        }),
      ],
    })
    const openProblem = vi.fn()
    const container = render(
      <OpenCheckProblemContext.Provider value={openProblem}>
        <CheckReportView report={report} />
      </OpenCheckProblemContext.Provider>,
    )
    click(buttonWithText(container, 'TypeError: items is undefined'))
    expect(openProblem).not.toHaveBeenCalled()
    expect(container.querySelector('pre')?.textContent).toContain('at List (src/List.tsx:4:9)')
  })

  it('says when the check was stopped', () => {
    const container = render(
      <CheckReportView report={sampleReport({ state: 'interrupted', finishedAt: null })} />,
    )
    expect(container.textContent).toContain(CHECK_TEXTS.interrupted)
  })
})
