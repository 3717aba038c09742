/** The empty exploration: what this mode is for. */
export function ExplorationIntro() {
  return (
    <div className="flex flex-col items-center gap-2 py-16 text-center">
      <h2 className="text-base font-semibold text-zinc-900">What's the idea?</h2>
      <p className="max-w-md text-sm text-zinc-500">
        Describe what you have in mind, however rough. The agent asks questions and suggests
        directions; when it feels right, choose Build this to create the app.
      </p>
    </div>
  )
}
