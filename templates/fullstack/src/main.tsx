import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App.tsx'
import './index.css'

const rootElement = document.getElementById('root')
if (!rootElement) throw new Error('index.html needs an element with id "root"')

createRoot(rootElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
