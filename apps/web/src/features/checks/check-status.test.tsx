import { CHECK_TEXTS } from '@sprout/protocol/api/checks.ts'
import { act, useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { failedReport, fakeChecks, sampleReport } from '../../testing/fake-checks.ts'
import { buttonNamed, cleanup, click, pageText, until } from '../../testing/render.tsx'
import { renderScreen } from '../../testing/render-screen.tsx'
import { CHECK_STATUS_TEXTS, CheckStatus } from './check-status.tsx'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const statusText = () => document.querySelector('[data-testid="check-status"]')?.textContent ?? ''

describe("the builder's check status", () => {
  it('shows nothing but Check now when the app was never checked', async () => {
    const fake = fakeChecks({ latest: null })
    renderScreen(<CheckStatus applicationId="app-1" agentRunning={false} />)
    await until(() => fake.calls.length === 1)
    await until(() => statusText() === CHECK_STATUS_TEXTS.checkNow)
    expect(fake.calls[0]?.path).toBe('/api/applications/app-1/checks/latest')
  })

  it("reads 'Checks passed' after a check that passed", async () => {
    fakeChecks({ latest: sampleReport() })
    renderScreen(<CheckStatus applicationId="app-1" agentRunning={false} />)
    await until(() => statusText().includes(CHECK_STATUS_TEXTS.passed))
  })

  it('counts the problems and shows them in a popover that Escape closes', async () => {
    fakeChecks({ latest: failedReport() })
    renderScreen(<CheckStatus applicationId="app-1" agentRunning={false} />)
    await until(() => statusText().includes('2 problems'))
    const toggle = buttonNamed('2 problems')
    click(toggle)
    const popover = document.querySelector('[role="dialog"]') as HTMLElement
    expect(popover.textContent).toContain("Cannot find name 'count'.")
    const problem = popover.querySelector('button') as HTMLButtonElement
    act(() => {
      problem.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    })
    await until(() => document.querySelector('[role="dialog"]') === null)
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
  })

  it("says 'Checking…' while a check runs", async () => {
    fakeChecks({ latest: sampleReport({ state: 'running', finishedAt: null }) })
    renderScreen(<CheckStatus applicationId="app-1" agentRunning={false} />)
    await until(() => statusText().includes(CHECK_TEXTS.running))
    expect(buttonNamed(CHECK_STATUS_TEXTS.checkNow).disabled).toBe(true)
  })

  it("checks on demand: 'Checking…' until the check answers, then its outcome", async () => {
    const fake = fakeChecks({ latest: null, checkNow: failedReport() })
    renderScreen(<CheckStatus applicationId="app-1" agentRunning={false} />)
    await until(() => fake.calls.length === 1)
    click(buttonNamed(CHECK_STATUS_TEXTS.checkNow))
    await until(() => statusText().includes(CHECK_TEXTS.running))
    expect(fake.calls.at(-1)).toMatchObject({
      method: 'POST',
      path: '/api/applications/app-1/checks',
    })
    fake.release()
    await until(() => statusText().includes('2 problems'))
  })

  it('names the part under way while Check now runs (issue 28)', async () => {
    const running = sampleReport({ id: 'check-manual', state: 'running', finishedAt: null })
    running.parts = running.parts.map((part, index) =>
      index === 0 ? part : { ...part, status: index === 1 ? 'running' : 'pending' },
    )
    const fake = fakeChecks({ latest: sampleReport(), latestWhileChecking: running })
    renderScreen(<CheckStatus applicationId="app-1" agentRunning={false} />)
    await until(() => statusText().includes(CHECK_STATUS_TEXTS.passed))
    click(buttonNamed(CHECK_STATUS_TEXTS.checkNow))
    await until(() => statusText().includes(`${CHECK_TEXTS.running}Build`))
    fake.release()
    await until(() => statusText().includes(CHECK_STATUS_TEXTS.passed))
    expect(statusText()).not.toContain(CHECK_TEXTS.running)
  })

  it('shows why Check now was refused', async () => {
    const fake = fakeChecks({
      latest: null,
      checkNow: { status: 409, error: CHECK_TEXTS.noBox },
    })
    renderScreen(<CheckStatus applicationId="app-1" agentRunning={false} />)
    await until(() => fake.calls.length === 1)
    click(buttonNamed(CHECK_STATUS_TEXTS.checkNow))
    fake.release()
    await until(() => document.querySelector('[role="alert"]')?.textContent === CHECK_TEXTS.noBox)
    expect(pageText()).toContain(CHECK_STATUS_TEXTS.checkNow)
  })

  it('asks again when a run of the builder ends', async () => {
    const fake = fakeChecks({ latest: null })
    renderScreen(<RunThatEnds />)
    await until(() => fake.calls.length === 1)
    click(buttonNamed('End the run'))
    await until(() => fake.calls.length === 2)
  })
})

function RunThatEnds() {
  const [running, setRunning] = useState(true)
  return (
    <>
      <button type="button" onClick={() => setRunning(false)}>
        End the run
      </button>
      <CheckStatus applicationId="app-1" agentRunning={running} />
    </>
  )
}
