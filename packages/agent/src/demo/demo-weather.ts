/**
 * The Demo model's "weather app" once its API key is in the vault
 * (docs/product/vault.md "Where values go"): a server route reading the key and a page calling it.
 * Fixed sources and sample data, so the flow runs without a weather provider.
 */
import { demoServerSource } from './demo-server-source.ts'
import { type DemoScript, writeFileStep } from './demo-steps.ts'

export const WEATHER_SECRET_KEY = 'WEATHER_API_KEY'

export const weatherServerPath = 'server/app.ts'

export const weatherServer = demoServerSource({
  imports: `import { z } from 'zod'`,
  routes: `const query = z.object({ city: z.string().trim().min(1).max(80).default('Lisbon') })

const sampleDays = ['Today', 'Tomorrow', 'Next day'].map((day, index) => ({
  day,
  summary: ['Sunny', 'Light rain', 'Cloudy'][index],
  high: [24, 19, 21][index],
  low: [16, 13, 14][index],
}))

app.get('/weather', (context) => {
  // The key comes from the vault, as an environment variable of the server only.
  const key = process.env.WEATHER_API_KEY
  if (!key) {
    return context.json({ error: 'WEATHER_API_KEY is not set: add it in Vault Secrets' }, 503)
  }
  const parsed = query.safeParse({ city: context.req.query('city') || undefined })
  if (!parsed.success) return context.json({ error: 'Give a city name' }, 400)
  // A real provider is called here with the key, e.g.
  // fetch(\`https://api.weather.example/forecast?city=\${city}\`, { headers: { authorization: \`Bearer \${key}\` } })
  return context.json({ city: parsed.data.city, source: 'sample', keySet: true, days: sampleDays })
})`,
})

export const weatherClientPath = 'src/App.tsx'

export const weatherClient = `import { type FormEvent, useEffect, useState } from 'react'

type Day = { day: string; summary: string; high: number; low: number }
type Forecast = { city: string; source: string; keySet: boolean; days: Day[] }

export function App() {
  const [city, setCity] = useState('Lisbon')
  const [forecast, setForecast] = useState<Forecast | undefined>()
  const [error, setError] = useState<string | undefined>()

  async function load(name: string) {
    setError(undefined)
    const response = await fetch(\`/api/weather?city=\${encodeURIComponent(name)}\`)
    const body = (await response.json()) as Forecast & { error?: string }
    if (!response.ok) throw new Error(body.error ?? \`The forecast failed (\${response.status})\`)
    setForecast(body)
  }

  useEffect(() => {
    load('Lisbon').catch((reason: unknown) => setError(reason instanceof Error ? reason.message : String(reason)))
  }, [])

  function search(event: FormEvent) {
    event.preventDefault()
    load(city).catch((reason: unknown) => setError(reason instanceof Error ? reason.message : String(reason)))
  }

  return (
    <main className="mx-auto flex min-h-screen max-w-2xl flex-col gap-8 px-6 py-16">
      <header className="flex flex-col gap-2">
        <h1 className="text-4xl font-semibold tracking-tight">Weather</h1>
        <p className="text-stone-600 dark:text-stone-400">The forecast for the next three days.</p>
      </header>
      <form onSubmit={search} className="flex gap-2">
        <input
          aria-label="City"
          value={city}
          onChange={(event) => setCity(event.target.value)}
          className="flex-1 rounded-lg border border-stone-300 bg-white px-3 py-2 dark:border-stone-700 dark:bg-stone-900"
        />
        <button type="submit" className="rounded-lg bg-sky-600 px-4 py-2 font-medium text-white hover:bg-sky-500">
          Show
        </button>
      </form>
      {error && <p role="alert" className="text-sm text-red-600">{error}</p>}
      {forecast && (
        <section aria-label="Forecast" className="flex flex-col gap-3">
          <p className="text-sm text-stone-500">
            {forecast.keySet ? 'Connected with your WEATHER_API_KEY' : 'No API key'} · {forecast.source} data for {forecast.city}
          </p>
          <ul className="grid grid-cols-3 gap-3">
            {forecast.days.map((day) => (
              <li key={day.day} className="rounded-lg border border-stone-200 bg-white px-4 py-3 dark:border-stone-800 dark:bg-stone-900">
                <p className="font-medium">{day.day}</p>
                <p>{day.summary}</p>
                <p className="text-stone-500">{day.high}° / {day.low}°</p>
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  )
}
`

/** Shows, in the agent's own command, that the key reached the app's environment (never its value). */
export const weatherKeyCheck = `node -e "const key = process.env.WEATHER_API_KEY; console.log(key ? 'WEATHER_API_KEY is set (' + key.length + ' characters)' : 'WEATHER_API_KEY is missing')"`

/** Once the key is set: a check that it reaches the app, the server route, the page. */
export const weatherScript: DemoScript = {
  steps: [
    {
      text: 'Thanks! First, a check that the key reaches the app (never its value):',
      toolCalls: [{ toolName: 'shell_exec', input: { command: weatherKeyCheck } }],
    },
    writeFileStep(
      'Now the server route, which reads the key from `process.env`.',
      weatherServerPath,
      weatherServer,
    ),
    writeFileStep('And the page that calls it.', weatherClientPath, weatherClient),
  ],
  done:
    'Done! `GET /api/weather` in `server/app.ts` reads `WEATHER_API_KEY` on the server (it ' +
    'never reaches the browser), and `src/App.tsx` shows the forecast. As a demo it ' +
    'answers sample data instead of calling a provider.',
}
