import { readFileSync } from 'node:fs'
import { devServerAnswers } from '@sprout/devbox/dev-server-request.ts'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import { expect, it } from 'vitest'
import { describeConfined, runToolCalls, setUpTestDriver, shell } from './support.ts'

/**
 * Per-box limits, each proved with a bounded command: the offender is stopped by its own limit
 * while the other box and its dev server keep answering.
 */
describeConfined('limits of a dev box', () => {
  let box: Devbox
  let neighbour: Devbox

  setUpTestDriver(
    { limits: { pids: 64, memoryMb: 128, cpus: 0.2, diskMb: 40 } },
    async (driver) => {
      box = await driver.provision('vite-react', { id: 'offender' })
      neighbour = await driver.provision('vite-react', { id: 'neighbour' })
    },
  )

  const neighbourAnswers = () => devServerAnswers(neighbour.devServer.target())

  it('stops at its process limit: 300 sleeps against a limit of 64', async () => {
    const output = await shell(
      box,
      `node -e "
        const { spawn } = require('child_process')
        let started = 0, refused = 0
        for (let i = 0; i < 300; i++) {
          try {
            const child = spawn('sleep', ['30'], { stdio: 'ignore' })
            child.on('error', () => { refused++ })
            child.on('spawn', () => { started++ })
          } catch { refused++ }
        }
        setTimeout(() => { console.log('started', started, 'refused', refused); process.exit(0) }, 1500)
      "`,
      20,
    )
    const [, started, , refused] = output.trim().split('\n')[0]?.split(' ') ?? []
    expect(Number(started)).toBeLessThan(64)
    expect(Number(refused)).toBeGreaterThan(200)
    expect(await neighbourAnswers()).toBe(true)
  }, 30_000)

  it('contains a fork bomb', async () => {
    const output = await shell(box, 'bomb() { bomb | bomb & }; bomb; sleep 2; echo survived', 5)
    expect(output).toMatch(/timed out|exit code/)
    expect(await neighbourAnswers()).toBe(true)
    // The box works again once the command is gone.
    expect(await shell(box, 'echo fine')).toContain('fine')
  }, 30_000)

  it('stops a memory hog past 128 MB', async () => {
    const output = await shell(
      box,
      `node -e "const kept = []; for (let i = 0; i < 400; i++) kept.push(Buffer.alloc(1 << 20, 1)); console.log('allocated 400 MB')"`,
      20,
    )
    expect(output).not.toContain('allocated 400 MB')
    expect(output).toMatch(/exit code (137|null|unknown)|Killed/)
    expect(await neighbourAnswers()).toBe(true)
  }, 30_000)

  it('throttles its CPU to its share', async () => {
    await shell(box, 'timeout 1.5 sh -c "while :; do :; done"; true', 10)
    const stat = readFileSync('/sys/fs/cgroup/cpu/sprout/offender/cpu.stat', 'utf8')
    expect(Number(/nr_throttled (\d+)/.exec(stat)?.[1])).toBeGreaterThan(0)
  })

  it('refuses commands and writes past its disk limit until space is freed', async () => {
    const tooBig = await shell(box, 'head -c 50M /dev/zero > one-big-file; ls -la one-big-file', 20)
    expect(tooBig).toMatch(/File size limit exceeded|exit code 153/)
    // The one file cut at the limit already fills the workspace: only deleting helps.
    expect(await shell(box, 'echo should not run')).toContain('over its limit of 40 MB')
    await runToolCalls(box, [{ name: 'delete_file', input: { path: 'one-big-file' } }])
    await shell(box, 'for n in 1 2 3 4 5; do head -c 9M /dev/zero > fill-$n; done', 20)
    const refused = await shell(box, 'echo should not run')
    expect(refused).toContain('over its limit of 40 MB')
    expect(refused).not.toContain('should not run')
    const [written] = await runToolCalls(box, [
      { name: 'write_file', input: { path: 'more.txt', content: 'x' } },
    ])
    expect(written).toContain('over its limit of 40 MB')
    await runToolCalls(
      box,
      [1, 2, 3, 4, 5].map((n) => ({ name: 'delete_file', input: { path: `fill-${n}` } })),
    )
    expect(await shell(box, 'echo runs again')).toContain('runs again')
  }, 60_000)
})
