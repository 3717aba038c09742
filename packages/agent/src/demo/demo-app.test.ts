import { expect, test } from 'vitest'
import { planDemoApp, renderDemoApp } from './demo-app.ts'
import { detectDemoIntent } from './demo-script.ts'

test('the title and features come from the prompt', () => {
  expect(planDemoApp('Build a habit tracker app with streaks, reminders and charts')).toMatchObject(
    {
      title: 'Habit Tracker',
      features: ['Streaks', 'Reminders', 'Charts'],
    },
  )
  expect(planDemoApp('Create a todo app').title).toBe('Todo')
})

test('prompt text can only ever become string literals in the TSX', () => {
  const injection = ['`$', '{alert(1)}`'].join('')
  const source = renderDemoApp(
    planDemoApp(`Make a "quiz" app with ${injection} and </script> tags`),
  )
  expect(source).toContain(
    `const description = "Make a \\"quiz\\" app with ${injection} and </script> tags"`,
  )
  expect(source).not.toMatch(/^const title = .*\$\{/m)
})

test('intents are read from the words of the last message', () => {
  expect(detectDemoIntent('Roll 3d20 please')).toEqual({ kind: 'dice', count: 3, sides: 20 })
  expect(detectDemoIntent('roll a die')).toEqual({ kind: 'dice', count: 1, sides: 6 })
  expect(detectDemoIntent("what's the time")).toEqual({ kind: 'time' })
  expect(detectDemoIntent('add a random number to -2.5')).toEqual({ kind: 'add-random', num: -2.5 })
  expect(detectDemoIntent('I want a website for my band')).toEqual({ kind: 'build' })
  expect(detectDemoIntent('hello')).toEqual({ kind: 'other' })
})
