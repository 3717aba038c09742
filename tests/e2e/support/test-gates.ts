import { randomUUID } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * A Demo run held open until the test says so (docs/decisions/013-test-gates.md): a message
 * ending in `token` stops before each step after its first until `release()`. Nothing then
 * races the speed of the machine.
 */
export function testGate() {
  const name = `gate-${randomUUID()}`
  const directory = path.resolve(`${process.env.SPROUT_E2E_DATA_DIR}/test-gates`)
  return {
    token: `[test-gate:${name}]`,
    async release() {
      await mkdir(directory, { recursive: true })
      await writeFile(path.join(directory, name), '')
    },
  }
}
