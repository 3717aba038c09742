import { secretSetMessage } from '@sprout/protocol/text/secret-request.ts'
import type { ModelMessage } from 'ai'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { runAgent } from '../run-agent.ts'
import { collectChunks } from '../testing/collect-chunks.ts'
import { demoRun } from '../testing/demo-run.ts'
import { createTempFolderDevbox, type TempFolderDevbox } from '../testing/temp-folder-devbox.ts'
import { weatherClientPath, weatherServerPath } from './demo-weather.ts'

let devbox: TempFolderDevbox
beforeEach(async () => {
  devbox = await createTempFolderDevbox()
})
afterEach(() => devbox.remove())

const run = async (messages: ModelMessage[], env: Record<string, string> = {}) => {
  const log = collectChunks()
  const result = await runAgent({
    ...demoRun(),
    messages,
    toolContext: {
      devbox: {
        ...devbox,
        exec: (command, options) => devbox.exec(command, { ...options, env }),
      },
    },
    onChunk: log.onChunk,
  })
  return { log, result }
}

test('"a weather app" asks for its key with the secret widget, then writes the route that reads it', async () => {
  const ask = await run([{ role: 'user', content: 'Build a weather app for my city' }])
  expect(ask.log.text()).toContain('<secret-request key="WEATHER_API_KEY" />')
  expect(ask.log.ofType('tool-input-available')).toEqual([])

  const { log, result } = await run(
    [
      { role: 'user', content: 'Build a weather app for my city' },
      { role: 'assistant', content: ask.log.text() },
      { role: 'user', content: secretSetMessage('WEATHER_API_KEY') },
    ],
    { WEATHER_API_KEY: 'demo-weather-key' },
  )
  expect(result.error).toBeUndefined()
  const calls = log.ofType('tool-input-available')
  expect(calls.map((chunk) => chunk.toolName)).toEqual(['shell_exec', 'write_file', 'write_file'])
  const outputs = log.ofType('tool-output-available').map((chunk) => String(chunk.output))
  expect(outputs[0]).toContain('WEATHER_API_KEY is set (16 characters)')
  const server = await devbox.files.read(weatherServerPath)
  expect(server).toContain('process.env.WEATHER_API_KEY')
  expect(server).toContain("app.get('/health'")
  expect(server).toContain("app.get('/weather'")
  const client = await devbox.files.read(weatherClientPath)
  expect(client).toContain('/api/weather')
  expect(client).not.toContain('WEATHER_API_KEY =')
  expect(log.text()).toContain('`GET /api/weather` in `server/app.ts` reads `WEATHER_API_KEY`')
})
