import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'
import { Navbar } from '../app/navbar.tsx'
import type { RouterContext } from '../app/router-context.ts'

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
})

function RootLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <Navbar />
      <main className="flex flex-1 flex-col">
        <Outlet />
      </main>
    </div>
  )
}
