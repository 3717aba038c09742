import { integrationGuideText } from '@sprout/protocol/tool-formats/integration-guide.ts'
import { MockLanguageModelV4 } from 'ai/test'
import { expect, test } from 'vitest'
import { executeTool } from '../testing/execute-tool.ts'
import { createIntegrationGuideTool, modelGuideAnswerer } from './integration-guide.ts'
import {
  answerFromGuide,
  findGuideName,
  guideForAgent,
  listGuideNames,
  readGuide,
} from './integration-guides.ts'
import type { ToolContext } from './tool-context.ts'

const context = (extra: Partial<ToolContext> = {}): ToolContext => ({
  devbox: { files: {} as ToolContext['devbox']['files'], exec: async () => Promise.reject() },
  ...extra,
})

test('there is a guide per preset, each with the sections an app needs', async () => {
  expect(await listGuideNames()).toEqual(['google-sheets', 'hubspot', 'linear'])
  for (const name of await listGuideNames()) {
    const guide = await readGuide(name)
    expect(guide).toContain(`getAccessToken('${name}')`)
    for (const heading of ['## Calling the API from server/', '## Pagination', '## Rate limits']) {
      expect(guide, `${name}: ${heading}`).toContain(heading)
    }
  }
})

// Issue 20: the answer carried the guide's note for maintainers and a raw link to tool-calls.md.
test('no guide hands the agent its notes for maintainers or links to other pages of the docs', async () => {
  for (const name of await listGuideNames()) {
    const guide = await readGuide(name)
    expect(guide, name).not.toContain('<!--')
    expect(guide, name).not.toContain('integration_guide tool')
    expect(guide, name).not.toMatch(/\]\((?!https?:\/\/)/)
    expect(guide, name).toMatch(/^# /)
  }
  const page = [
    '---',
    'owner: integrations',
    '---',
    '# Stripe integration guide',
    '',
    'Payments. <!-- inline note --> See [the API docs](https://docs.stripe.com/api).',
    '',
    '<!-- For maintainers:',
    'kept in sync with [tool-calls.md](../tool-calls.md#integration-guide). -->',
    '',
    'Read [errors](errors.md) and `handlers[name](input)` stays code.',
  ].join('\n')
  expect(guideForAgent(page)).toBe(
    [
      '# Stripe integration guide',
      '',
      'Payments. See [the API docs](https://docs.stripe.com/api).',
      '',
      'Read errors and `handlers[name](input)` stays code.',
    ].join('\n'),
  )
})

test("the model's name for an integration finds its guide", async () => {
  expect(await findGuideName('linear')).toBe('linear')
  expect(await findGuideName('Linear')).toBe('linear')
  expect(await findGuideName('Google Sheets')).toBe('google-sheets')
  expect(await findGuideName('sheets')).toBe('google-sheets')
  expect(await findGuideName('HubSpot CRM')).toBe('hubspot')
  expect(await findGuideName('Stripe')).toBeUndefined()
})

test('answers with the sections that match the question, the helper always included', async () => {
  const guide = await readGuide('linear')
  const pages = answerFromGuide(guide, 'How do I paginate through all issues?')
  expect(pages).toContain('# Linear integration guide')
  expect(pages).toContain('## Calling the API from server/')
  expect(pages).toContain('## Pagination')
  expect(pages).not.toContain('## Rate limits')
  const limits = answerFromGuide(guide, 'What are the rate limits?')
  expect(limits).toContain('## Rate limits')
  expect(limits).toContain('RATELIMITED')
  // Nothing specific: the whole guide.
  expect(answerFromGuide(guide, 'Tell me everything')).toBe(guide.trim())
})

test('integration_guide answers from the guide, shown as the chat reads it', async () => {
  const output = await executeTool(createIntegrationGuideTool(context()), {
    integration: 'linear',
    question: 'How do I list my issues with pagination?',
  })
  expect(typeof output).toBe('string')
  expect(integrationGuideText(output)).toBe(output)
  expect(output).toContain("getAccessToken('linear')")
  expect(output).toContain('https://api.linear.app/graphql')
  expect(output).toContain('endCursor')
})

test('a configured model answers from the guide; when it fails the guide answers', async () => {
  const seen: string[] = []
  const answering = context({
    integrationGuides: {
      answer: async ({ integration, question, guide }) => {
        seen.push(`${integration}: ${question} (${guide.length > 1000 ? 'guide' : 'no guide'})`)
        return 'Use `GET /crm/v3/objects/contacts` with `after`.'
      },
    },
  })
  const output = await executeTool(createIntegrationGuideTool(answering), {
    integration: 'HubSpot',
    question: 'How do I page through contacts?',
  })
  expect(output).toBe('Use `GET /crm/v3/objects/contacts` with `after`.')
  expect(seen).toEqual(['hubspot: How do I page through contacts? (guide)'])
  const failing = context({
    integrationGuides: {
      answer: async () => {
        throw new Error('model unavailable')
      },
    },
  })
  const fallback = await executeTool(createIntegrationGuideTool(failing), {
    integration: 'hubspot',
    question: 'How do I page through contacts?',
  })
  expect(fallback).toContain('paging.next.after')
})

test('an integration without a guide gets the general way and the guides that exist', async () => {
  const output = await executeTool(createIntegrationGuideTool(context()), {
    integration: 'Stripe',
    question: 'How do I list charges?',
  })
  expect(output).toContain(
    'There is no guide for Stripe; guides exist for google-sheets, hubspot, linear.',
  )
  expect(output).toContain("getAccessToken('<service name>')")
})

test("a model's answer is asked with the guide and the question", async () => {
  const model = new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'Call `issues(first: 50, after: $cursor)`.' }],
      finishReason: { unified: 'stop', raw: 'end_turn' },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 1, text: 1, reasoning: 0 },
      },
      warnings: [],
    }),
  })
  const output = await executeTool(
    createIntegrationGuideTool(
      context({ integrationGuides: { answer: modelGuideAnswerer(model) } }),
    ),
    { integration: 'Linear', question: 'How do I page through issues?' },
  )
  expect(output).toBe('Call `issues(first: 50, after: $cursor)`.')
  const prompt = JSON.stringify(model.doGenerateCalls[0]?.prompt)
  expect(prompt).toContain('The linear integration guide')
  expect(prompt).toContain('## Pagination')
  expect(prompt).toContain('Question: How do I page through issues?')
  expect(prompt).toContain('getAccessToken from server/integrations.ts')
})
