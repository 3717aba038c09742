import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import { defaultBoxUid } from '@sprout/devbox/drivers/local/sandbox/sandbox.ts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeConfined, runToolCalls, setUpTestDriver, shell } from './support.ts'

/** Who app code is inside a box: an unprivileged uid with no capabilities that owns its workspace. */
describeConfined('identity of a dev box', () => {
  let box: Devbox
  let serverFolder: string

  beforeAll(async () => {
    // A file of the server user outside every hidden folder: only permissions protect it.
    serverFolder = await mkdtemp('/var/tmp/sprout-server-file-')
    await writeFile(path.join(serverFolder, 'server-only.txt'), 'server secret', { mode: 0o600 })
  })
  afterAll(() => rm(serverFolder, { recursive: true, force: true }))
  setUpTestDriver({}, async (driver) => {
    box = await driver.provision('vite-react')
  })

  it('runs as an unprivileged uid with no capabilities and no_new_privs', async () => {
    const output = await shell(
      box,
      'id -u; id -g; id -G; grep -E "^(CapEff|CapPrm|CapBnd|NoNewPrivs)" /proc/self/status',
    )
    const lines = output.split('\n')
    expect(lines.slice(0, 3)).toEqual([
      String(defaultBoxUid),
      String(defaultBoxUid),
      String(defaultBoxUid),
    ])
    expect(output).toMatch(/CapEff:\s+0000000000000000/)
    expect(output).toMatch(/CapPrm:\s+0000000000000000/)
    expect(output).toMatch(/CapBnd:\s+0000000000000000/)
    expect(output).toMatch(/NoNewPrivs:\s+1/)
  })

  it('holds no descriptor the server opened for it: not bubblewrap’s options, not its filter', async () => {
    // The server hands both over as descriptors 3 and 4 (process-group.ts); bubblewrap reads and
    // closes them before the box's command runs, so app code cannot read the host paths in them.
    // No pipeline: a pipe the shell makes for one is numbered 3 and 4 until the shell closes its
    // ends, and a reader that opens its own pipe then waits forever (seen on a loaded CI machine).
    const output = await shell(
      box,
      'ls -l /proc/$$/fd; for fd in 3 4; do timeout 5 head -c 200 /proc/$$/fd/$fd </dev/null 2>&1; done',
    )
    expect(output).not.toMatch(/seccomp|arguments|\(deleted\)/)
    expect(output).not.toContain('/workspaces/')
    expect(output).not.toContain('--bind')
  })

  it('cannot read /etc/shadow or the server user’s files, nor become root', async () => {
    const output = await shell(
      box,
      `cat /etc/shadow 2>&1; cat ${serverFolder}/server-only.txt 2>&1; ls ${serverFolder} 2>&1; su -c id root </dev/null 2>&1 | head -1; grep -c . /etc/passwd`,
    )
    // The host's shadow and the server's folders are not in the box at all (allow-listed root).
    expect(output).toContain('/etc/shadow: No such file or directory')
    expect(output).not.toContain('server secret')
    expect(output).toContain(`${serverFolder}/server-only.txt: No such file or directory`)
    expect(output).not.toMatch(/uid=0/)
    // The box sees its own small passwd, not the host's accounts.
    expect(output.trim().split('\n').at(-2)).toBe('3')
  })

  it('owns its workspace, including what the agent’s file tools write', async () => {
    await runToolCalls(box, [
      { name: 'write_file', input: { path: 'src/new/made-by-agent.ts', content: 'export {}\n' } },
    ])
    const output = await shell(
      box,
      'stat -c "%u %n" . package.json src/new src/new/made-by-agent.ts; echo more >> src/new/made-by-agent.ts && echo appended',
    )
    for (const line of output.split('\n').slice(0, 4)) {
      expect(line.split(' ')[0]).toBe(String(defaultBoxUid))
    }
    expect(output).toContain('appended')
  })
})
