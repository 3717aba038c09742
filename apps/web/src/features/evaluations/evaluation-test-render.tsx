/** TEST HELPER: renders a screen inside a query client and a memory router (its Links need one). */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router'
import { act, type ReactNode } from 'react'
import { expect } from 'vitest'
import { render } from '../chat/test-render.tsx'

export function renderScreen(element: ReactNode): HTMLElement {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const rootRoute = createRootRoute()
  const anyPath = createRoute({
    getParentRoute: () => rootRoute,
    path: '$',
    component: () => element,
  })
  const router = createRouter({
    routeTree: rootRoute.addChildren([anyPath]),
    history: createMemoryHistory({ initialEntries: ['/admin/evals'] }),
  })
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router as never} />
    </QueryClientProvider>,
  )
}

export const pageText = () => document.body.textContent ?? ''

export function buttonNamed(name: string, scope: ParentNode = document): HTMLButtonElement {
  const found = Array.from(scope.querySelectorAll('button')).find(
    (candidate) => candidate.textContent?.trim() === name,
  )
  if (!found) throw new Error(`No button ${name} in: ${pageText()}`)
  return found
}

/** Waits, in real time, for the screen to reach a condition. */
export async function until(condition: () => boolean) {
  for (let attempt = 0; attempt < 1000 && !condition(); attempt++) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5))
    })
  }
  expect(condition(), pageText()).toBe(true)
}
