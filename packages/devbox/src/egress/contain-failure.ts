/**
 * Runs one handler of one connection so that neither a throw nor a rejected promise escapes it:
 * `onFailure` gets the error instead, and ends that connection alone. An uncaught error there
 * would otherwise take down the server and every box's proxy with it.
 */
export function containFailure(run: () => unknown, onFailure: (error: unknown) => void): void {
  const fail = (error: unknown) => {
    try {
      onFailure(error)
    } catch {
      // Ending a connection that is already gone may throw too; nothing is left to do.
    }
  }
  try {
    const result = run()
    if (result instanceof Promise) result.catch(fail)
  } catch (error) {
    fail(error)
  }
}
