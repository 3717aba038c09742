import type { AppServerInstance, StartAppServer } from './app-server-instance.ts'

/** A driver's `start`, keeping its running instances so `stopAll` stops them (a driver's close). */
export function trackInstances(start: StartAppServer) {
  const running = new Set<AppServerInstance>()
  return {
    start: (async (request) => {
      const instance = await start(request)
      running.add(instance)
      void instance.exited.then(() => running.delete(instance))
      return instance
    }) satisfies StartAppServer,
    stopAll: async () => {
      await Promise.all([...running].map((instance) => instance.stop()))
    },
  }
}
