import type { CheckProblem } from '@sprout/protocol/api/checks.ts'
import { createContext, useContext } from 'react'

/**
 * Opens a problem's file in the builder's Code tab (docs/product/checks.md "Shown on the run").
 * Absent outside the builder: a problem then expands in place.
 */
export type OpenCheckProblem = (problem: CheckProblem & { file: string }) => void

export const OpenCheckProblemContext = createContext<OpenCheckProblem | undefined>(undefined)

export function useOpenCheckProblem(): OpenCheckProblem | undefined {
  return useContext(OpenCheckProblemContext)
}
