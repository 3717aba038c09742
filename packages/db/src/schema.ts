import { appChecks, organizationCheckSettings } from './schema/app-checks.ts'
import { appRuntimeTokens } from './schema/app-runtime-tokens.ts'
import { appHandEdits, appRunNotes, appVersions } from './schema/app-versions.ts'
import { applications } from './schema/applications.ts'
import { auditEvents } from './schema/audit-events.ts'
import * as auth from './schema/auth.ts'
import { chatImages } from './schema/chat-images.ts'
import { checkScreenshots } from './schema/check-screenshots.ts'
import { boxLeases, devboxPool, sproutInstances } from './schema/cluster.ts'
import { conversationEvents } from './schema/conversation-events.ts'
import { conversations } from './schema/conversations.ts'
import { deploys } from './schema/deploys.ts'
import { devboxAuthTokens } from './schema/devbox-auth-tokens.ts'
import { devboxes } from './schema/devboxes.ts'
import { errorGroups } from './schema/error-groups.ts'
import { errorInstances } from './schema/error-instances.ts'
import { errorProjects } from './schema/error-projects.ts'
import { evaluationItems, evaluations } from './schema/evaluations.ts'
import { gitRemotes } from './schema/git-remotes.ts'
import { installationSettings } from './schema/installation-settings.ts'
import { mailOutbox } from './schema/mail-outbox.ts'
import { messages } from './schema/messages.ts'
import { runs } from './schema/runs.ts'
import { stagedMessages } from './schema/staged-messages.ts'
import { vaultSecrets } from './schema/vault-secrets.ts'

/** Every table Drizzle knows; product tables are added here, one file per entity in schema/. */
export const schema = {
  ...auth,
  applications,
  auditEvents,
  devboxes,
  deploys,
  devboxAuthTokens,
  conversations,
  messages,
  conversationEvents,
  runs,
  stagedMessages,
  vaultSecrets,
  errorProjects,
  errorGroups,
  errorInstances,
  appRuntimeTokens,
  evaluations,
  evaluationItems,
  mailOutbox,
  installationSettings,
  gitRemotes,
  appVersions,
  appRunNotes,
  appChecks,
  organizationCheckSettings,
  appHandEdits,
  sproutInstances,
  boxLeases,
  devboxPool,
  chatImages,
  checkScreenshots,
}
