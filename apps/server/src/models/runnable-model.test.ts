import { beforeAll, describe, expect, it } from 'vitest'
import { useOrganizationHarness } from '../testing/organization-harness.ts'

// One check, one text: every route that takes a model answers the same 400 for the same mistake.
describe('a model that cannot run here', { timeout: 60_000 }, () => {
  const setup = useOrganizationHarness()
  let applicationId: string

  beforeAll(async () => {
    const created = await post('/api/applications', { initial_prompt: 'An app', model: 'demo' })
    applicationId = ((await created.json()) as { id: string }).id
  })

  function post(path: string, body: Record<string, unknown>) {
    return setup.harness.request(path, {
      method: 'POST',
      user: setup.owner,
      headers: { 'organization-id': setup.organizationId },
      body: JSON.stringify(body),
    })
  }

  const routes = (model: string) => [
    post('/api/applications', { initial_prompt: 'An app', model }),
    post(`/api/demo/applications/${applicationId}/message`, { message: 'Hi', model }),
    post('/api/explorations', { model }),
  ]

  for (const [model, text] of [
    ['gpt-9000', 'Invalid field "model": unknown model "gpt-9000"'],
    [
      'claude-sonnet-4-5',
      'Model Claude Sonnet 4.5 is not available. Set ANTHROPIC_API_KEY to use this model.',
    ],
  ] as const) {
    it(`answers '${text}' everywhere`, async () => {
      for (const response of await Promise.all(routes(model))) {
        expect(response.status).toBe(400)
        expect(await response.json()).toEqual({ error: text })
      }
    })
  }

  it('answers a malformed model with the same 400 on both chats', async () => {
    const someId = crypto.randomUUID()
    const answers = await Promise.all([
      post(`/api/demo/applications/${applicationId}/continue?conversation_id=${someId}`, {
        model: 42,
      }),
      post(`/api/explorations/${someId}/continue`, { model: 42 }),
    ])
    const bodies = await Promise.all(answers.map((answer) => answer.json()))
    expect(answers.map((answer) => answer.status)).toEqual([400, 400])
    expect(bodies[0]).toEqual(bodies[1])
    expect(bodies[0]).toMatchObject({ error: expect.stringMatching(/^Invalid field "model"/) })
  })
})
