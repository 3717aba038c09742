import { useState } from 'react'

const features = [
  {
    title: 'React 19',
    description: 'Components, hooks and the latest React features, typed end to end.',
  },
  {
    title: 'Tailwind CSS 4',
    description: 'Utility classes in your markup, with a theme you can extend in index.css.',
  },
  {
    title: 'Vite 8',
    description: 'Instant start and hot module replacement while you build.',
  },
]

export function App() {
  const [count, setCount] = useState(0)

  return (
    <main className="mx-auto flex min-h-screen max-w-4xl flex-col justify-center gap-12 px-6 py-16">
      <header className="flex flex-col gap-5">
        <span className="w-fit rounded-full bg-emerald-100 px-3 py-1 text-sm font-medium text-emerald-800 dark:bg-emerald-900/40 dark:text-emerald-300">
          Ready to grow
        </span>
        <h1 className="text-4xl font-semibold tracking-tight sm:text-5xl">Your app starts here.</h1>
        <p className="max-w-2xl text-lg text-stone-600 dark:text-stone-400">
          Describe what you want to build in the chat and watch this page change. Everything you see
          is plain React and Tailwind, so you can keep editing it yourself.
        </p>
        <div className="flex items-center gap-3">
          <button
            type="button"
            onClick={() => setCount((value) => value + 1)}
            className="rounded-lg bg-emerald-600 px-4 py-2 font-medium text-white shadow-sm transition hover:bg-emerald-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600"
          >
            Water the sprout
          </button>
          <span className="text-sm text-stone-500 dark:text-stone-400" aria-live="polite">
            {count === 0 ? 'Not watered yet' : `Watered ${count} ${count === 1 ? 'time' : 'times'}`}
          </span>
        </div>
      </header>

      <section className="grid gap-4 sm:grid-cols-3">
        {features.map((feature) => (
          <article
            key={feature.title}
            className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm dark:border-stone-800 dark:bg-stone-900"
          >
            <h2 className="font-semibold">{feature.title}</h2>
            <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{feature.description}</p>
          </article>
        ))}
      </section>

      <footer className="text-sm text-stone-500 dark:text-stone-500">
        Edit{' '}
        <code className="rounded bg-stone-200/60 px-1.5 py-0.5 dark:bg-stone-800">src/App.tsx</code>{' '}
        to get started.
      </footer>
    </main>
  )
}
