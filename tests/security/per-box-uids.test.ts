import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import { expect, it } from 'vitest'
import { describeConfined, setUpTestDriver, shell } from './support.ts'
import { waitFor } from './wait-for.ts'

/**
 * Per-user kernel limits are each box's own: every box runs as a uid of its own (issue 29: one
 * app holding inotify instances made `fs.watch` fail with EMFILE in another user's box).
 */
describeConfined('a uid per box', () => {
  let greedy: Devbox
  let neighbour: Devbox

  // Away from DEVBOX_UID's default, which other suites' boxes on this machine run as.
  setUpTestDriver({ boxUid: 63500 }, async (driver) => {
    greedy = await driver.provision('vite-react', { id: `greedy-${crypto.randomUUID()}` })
    neighbour = await driver.provision('vite-react', { id: `neighbour-${crypto.randomUUID()}` })
  })

  const watches = `node -e "try { require('fs').watch('.').close(); console.log('watch ok') } catch (error) { console.log(error.code) }"`

  it('runs each box as its own uid', async () => {
    const [greedyUid, neighbourUid] = await Promise.all([
      shell(greedy, 'id -u; whoami'),
      shell(neighbour, 'id -u; whoami'),
    ])
    const uidOf = (output: string) => /^(\d+)\nsprout\n/.exec(output)?.[1]
    expect(uidOf(greedyUid)).toBeDefined()
    expect(uidOf(neighbourUid)).toBeDefined()
    expect(uidOf(greedyUid)).not.toBe(uidOf(neighbourUid))
  })

  it("keeps another box's fs.watch working while one box holds every inotify instance its uid may have", async () => {
    let output = ''
    const holding = new AbortController()
    // Every `tail -f` holds an inotify instance; past the per-uid limit (128 by default) tail
    // says so and polls instead.
    const greedyCommand = greedy.exec(
      [
        'touch watched; : > tail.err',
        // 200: past the default limit of 128, within the box's 256 processes.
        'for i in $(seq 200); do tail -f watched 2>>tail.err & done',
        'until grep -q inotify tail.err; do sleep 0.1; done',
        `echo EXHAUSTED; ${watches}; sleep 120`,
      ].join('\n'),
      {
        timeoutSeconds: 150,
        signal: holding.signal,
        onOutput: (chunk) => {
          output += chunk
        },
      },
    )
    try {
      await waitFor(
        () => `the greedy box to exhaust its inotify instances:\n${output}`,
        60_000,
        () => (/EXHAUSTED\n(watch ok|\w+)\n/.test(output) ? true : undefined),
      )
      // Its own uid is out of instances…
      expect(output).toMatch(/EXHAUSTED\nEMFILE\n/)
      // …and another box's is not.
      expect(await shell(neighbour, watches)).toMatch(/^watch ok\n/)
    } finally {
      holding.abort()
      await greedyCommand
    }
  }, 120_000)
})
