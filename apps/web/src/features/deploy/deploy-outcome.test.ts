import { describe, expect, it } from 'vitest'
import { API_REQUEST_FAILED, ApiError } from '../../lib/api-error.ts'
import { deployAnswerOutcome, deployErrorOutcome } from './deploy-outcome.ts'

describe('deploy outcome texts (docs/product/deploys.md "Texts")', () => {
  it('reports success with the production URL', () => {
    expect(deployAnswerOutcome({ success: true, prod_url: 'http://todo.apps.localhost' })).toEqual({
      kind: 'success',
      message: 'Deployment initiated successfully!',
      prodUrl: 'http://todo.apps.localhost',
    })
  })

  it("shows the server's error after 'Deployment failed: '", () => {
    const buildOutput = 'src/App.tsx(3,1): error TS1005\nBuild failed'
    expect(deployErrorOutcome(new ApiError(buildOutput, 422))).toEqual({
      kind: 'failure',
      message: `Deployment failed: ${buildOutput}`,
    })
    expect(deployAnswerOutcome({ success: false, error: 'No space left' }).message).toBe(
      'Deployment failed: No space left',
    )
  })

  it("says 'Unknown error' when the server gave no reason", () => {
    expect(deployAnswerOutcome({ success: false }).message).toBe('Deployment failed: Unknown error')
    expect(deployErrorOutcome(new ApiError(API_REQUEST_FAILED, 500)).message).toBe(
      'Deployment failed: Unknown error',
    )
  })

  it('says the deployment was not initiated when the server was not reached', () => {
    expect(deployErrorOutcome(new ApiError(API_REQUEST_FAILED, 0)).message).toBe(
      'Failed to initiate deployment',
    )
    expect(deployErrorOutcome(new TypeError('boom')).message).toBe('Failed to initiate deployment')
  })
})
