import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createAppRouter } from './app/router.tsx'
import { ApplicationNameProvider } from './components/layout/application-name-provider.tsx'
import { configureApiClient } from './lib/api-client.ts'
import { createQueryClient } from './lib/query-client.ts'
import { forgetUserData, sessionQueryKey } from './lib/session-query.ts'
import './styles.css'

const queryClient = createQueryClient()
const router = createAppRouter(queryClient)

configureApiClient({
  onSessionExpired: () => {
    queryClient.setQueryData(sessionQueryKey, null)
    void router.navigate({ to: '/signin', search: { expired: true } }).then(() => {
      forgetUserData(queryClient)
    })
  },
  onForbidden: () => {
    void router.navigate({ to: '/unauthorized' })
  },
})

const rootElement = document.getElementById('root')
if (!rootElement) throw new Error('index.html needs an element with id "root".')

createRoot(rootElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ApplicationNameProvider>
        <RouterProvider router={router} />
      </ApplicationNameProvider>
    </QueryClientProvider>
  </StrictMode>,
)
