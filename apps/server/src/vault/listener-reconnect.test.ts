import { describe, expect, it } from 'vitest'
import { testDatabaseKind } from '../testing/database.ts'
import { useOrganizationHarness } from '../testing/organization-harness.ts'
import { openOtherInstanceDatabase } from '../testing/other-instance-database.ts'
import { createVault } from './service.ts'

/**
 * A secret replaced through A while B's listener is cut (the NOTIFY lost for B): B reads every
 * application's values again on reconnect, so its redaction and servers get the new one
 * (docs/architecture/scale-out.md "What already works across processes").
 */
describe.skipIf(testDatabaseKind !== 'postgres')(
  'vault values across a listener reconnect',
  {
    timeout: 120_000,
  },
  () => {
    const setup = useOrganizationHarness({ organizationName: 'Vault owners' })

    it('gives B the value set while its listener was down, and tells its servers', async () => {
      const applicationId = await setup.createApplication('A weather app')
      const setSecret = (key: string, value: string) =>
        setup.harness.request(`/api/applications/${applicationId}/vault`, {
          method: 'POST',
          user: setup.owner,
          headers: { 'organization-id': setup.organizationId },
          body: JSON.stringify({ key, value }),
        })
      expect((await setSecret('API_KEY', 'old-value-1234')).status).toBe(200)

      const other = await openOtherInstanceDatabase(setup.harness.database, {
        listenerRetryMs: 2000,
      })
      const second = createVault({
        database: other.database,
        keyring: setup.harness.created.vault.keyring,
      })
      try {
        await second.start()
        const heard: string[] = []
        second.onChange((id) => heard.push(id))
        expect(second.runSecrets.current(applicationId)?.env.API_KEY).toBe('old-value-1234')

        await other.cutListener()
        expect((await setSecret('API_KEY', 'new-value-5678')).status).toBe(200)
        expect(await other.listenerPids()).toEqual([])

        await expect
          .poll(() => second.runSecrets.current(applicationId)?.env.API_KEY, { timeout: 5000 })
          .toBe('new-value-5678')
        expect(second.redact(applicationId, 'key new-value-5678')).not.toContain('new-value-5678')
        await expect.poll(() => heard, { timeout: 5000 }).toEqual([applicationId])
      } finally {
        await second.stop()
        await other.database.close()
      }
    })
  },
)
