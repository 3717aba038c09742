import { randomBytes } from 'node:crypto'
import { gitRemotes } from '@sprout/db/schema/git-remotes.ts'
import { describe, expect, it } from 'vitest'
import { createKeyring } from '../sealing/master-keys.ts'
import { seedApplication } from '../testing/seed-conversations.ts'
import { useTestApp } from '../testing/use-app-harness.ts'
import {
  gitRemoteForPush,
  readGitRemote,
  resealGitTokens,
  writeGitRemote,
} from './git-remote-store.ts'

// docs/product/vault.md "Master key": a git token follows a key rotation like a vault value.
describe('git tokens on key rotation', () => {
  const setup = useTestApp()

  it('moves tokens under VAULT_KEY, once, and they still open; never shown', async () => {
    const { harness } = setup
    const owner = await harness.signUp()
    const organizationId = await harness.createOrganization(owner, 'Pushers')
    const applicationId = await seedApplication(harness.database.db, organizationId)
    const db = harness.database.db
    const oldKeyring = createKeyring(randomBytes(32).toString('base64'), [])
    const remote = { url: 'https://git.example.com/team/app.git', token: 'the-git-token' }
    expect(await writeGitRemote(db, oldKeyring, applicationId, remote)).toEqual({
      url: remote.url,
      branch: 'main',
      hasToken: true,
      integration: null,
    })
    const rotated = createKeyring(randomBytes(32).toString('base64'), [
      oldKeyring.current.key.toString('base64'),
    ])
    expect(await resealGitTokens(db, rotated)).toBe(1)
    expect(await resealGitTokens(db, rotated)).toBe(0)
    const [row] = await db.select().from(gitRemotes)
    expect(row?.tokenKeyId).toBe(rotated.current.id)
    expect(JSON.stringify(row)).not.toContain('the-git-token')
    const onlyNewKey = createKeyring(rotated.current.key.toString('base64'), [])
    expect((await gitRemoteForPush(db, onlyNewKey, applicationId))?.token).toBe('the-git-token')
    expect(JSON.stringify(await readGitRemote(db, applicationId))).not.toContain('the-git-token')
  })
})
