import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { networkProbeSource, parseProbe } from './network-probe.ts'
import { confinedSuite, createTestDriver, fullConfinementMissing, shell } from './support.ts'

/**
 * What app code can reach from inside a box (docs/security.md): nothing of the host, no other
 * box, no private range — only the egress proxy, which refuses those too after resolving names.
 */
describe.skipIf(fullConfinementMissing)(confinedSuite('network of a dev box'), () => {
  let setup: Awaited<ReturnType<typeof createTestDriver>>
  let box: Devbox
  let other: Devbox
  let hostServer: http.Server
  let hostPort: number

  beforeAll(async () => {
    hostServer = http.createServer((_request, response) => response.end('host service'))
    await new Promise<void>((resolve) => hostServer.listen(0, '127.0.0.1', resolve))
    hostPort = (hostServer.address() as AddressInfo).port
    setup = await createTestDriver()
    box = await setup.driver.provision('vite-react', { id: 'box-a' })
    other = await setup.driver.provision('vite-react', { id: 'box-b' })
    await box.files.write('probe.mjs', networkProbeSource)
  }, 60_000)
  afterAll(async () => {
    await setup?.close()
    hostServer?.close()
  })

  const probe = async (targets: [string, number][]) =>
    parseProbe(await shell(box, `node probe.mjs '${JSON.stringify(targets)}'`))

  it('reaches no service on the host, directly or through the proxy', async () => {
    const results = await probe([
      ['127.0.0.1', hostPort],
      ['127.0.0.1', 5432],
      ['localhost', hostPort],
      ['[::1]', hostPort],
      ['0.0.0.0', hostPort],
      ['2130706433', hostPort],
      ['[::ffff:127.0.0.1]', hostPort],
    ])
    for (const [target, result] of Object.entries(results)) {
      expect(result.direct, target).not.toBe('open')
      expect(result.proxy, target).toMatch(/^HTTP\/1\.1 403 .*local or private address/)
    }
  })

  it('reaches no private, link-local or metadata address', async () => {
    const results = await probe([
      ['10.0.0.1', 80],
      ['172.16.0.1', 80],
      ['192.168.1.1', 80],
      ['169.254.169.254', 80],
      ['100.64.0.1', 80],
      ['[fc00::1]', 80],
      ['[fe80::1]', 80],
    ])
    for (const [target, result] of Object.entries(results)) {
      expect(result.direct, target).not.toBe('open')
      expect(result.proxy, target).toMatch(/^HTTP\/1\.1 403 /)
    }
  })

  it('sees only its own dev server, never another box’s or their sockets', async () => {
    const own = await shell(
      box,
      'node -e "fetch(\'http://127.0.0.1:5173\').then(r => r.text()).then(console.log)"',
    )
    expect(own).toContain('fake dev server')
    await other.files.write('secret.txt', 'box B source')
    const target = other.devServer.target()
    expect(target && 'socketPath' in target).toBe(true)
    const socketPath = target && 'socketPath' in target ? target.socketPath : ''
    const look = await shell(
      box,
      `ls /tmp | wc -l; ls ${socketPath} 2>&1; ls ${other.workspacePath} 2>&1; cat /home/sprout/app/../*/secret.txt 2>&1`,
    )
    expect(look.split('\n')[0]).toBe('0')
    expect(look).toContain('No such file or directory')
    expect(look).not.toContain('box B source')
  })

  it('has no name resolution of its own: names go through the proxy', async () => {
    const output = await shell(
      box,
      "node -e \"require('dns').lookup('registry.npmjs.org', (error, address) => console.log(error ? 'no dns: ' + error.code : 'resolved ' + address))\"",
    )
    expect(output).toMatch(/no dns/)
  })
})

describe.skipIf(fullConfinementMissing)(confinedSuite('egress policies (DEVBOX_EGRESS)'), () => {
  const registryAuthority: [string, number] = ['registry.npmjs.org', 443]

  it.each([
    {
      egress: 'open' as const,
      registry: /200 Connection Established/,
      other: /403 .*does not resolve/,
    },
    {
      egress: 'registry' as const,
      registry: /200 Connection Established/,
      other: /403 .*only the npm registry/,
    },
    {
      egress: 'none' as const,
      registry: /403 .*outbound access is off/,
      other: /403 .*outbound access is off/,
    },
  ])(
    '$egress: the registry and another public host',
    async ({ egress, registry, other }) => {
      const setup = await createTestDriver({ egress })
      try {
        const box = await setup.driver.provision('vite-react')
        await box.files.write('probe.mjs', networkProbeSource)
        const results = parseProbe(
          await shell(
            box,
            `node probe.mjs '${JSON.stringify([registryAuthority, ['sprout-test.invalid', 443]])}'`,
          ),
        )
        expect(results['registry.npmjs.org:443']?.proxy).toMatch(registry)
        expect(results['sprout-test.invalid:443']?.proxy).toMatch(other)
        expect(results['registry.npmjs.org:443']?.direct).not.toBe('open')
      } finally {
        await setup.close()
      }
    },
    60_000,
  )

  it('npm install works through the proxy with DEVBOX_EGRESS=registry', async () => {
    const setup = await createTestDriver({ egress: 'registry' })
    try {
      const box = await setup.driver.provision('vite-react')
      const output = await shell(
        box,
        'npm install --no-save --no-package-lock is-number@7.0.0 2>&1 | tail -3; node -e "console.log(require(\'is-number\')(5))"',
        120,
      )
      expect(output).toContain('true')
    } finally {
      await setup.close()
    }
  }, 150_000)
})
