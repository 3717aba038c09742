import path from 'node:path'
import { boxImageSettings } from '../box-image.ts'
import type { BoxManifestSettings } from '../box-manifests.ts'

/** The in-box agent beside the driver: the tests' "image" is this machine. */
export const testAgentPath = path.join(import.meta.dirname, '../agent/box-agent.ts')

/** Box settings for tests: the image's labels and ports, this machine's starters and agent. */
export const testBoxSettings = (templatesPath: string): BoxManifestSettings => ({
  ...boxImageSettings,
  namespace: 'sprout-boxes',
  image: 'sprout-box:test',
  runtimeClassName: 'gvisor',
  diskMb: 1024,
  memoryMb: 1024,
  cpus: 1,
  templatesPath,
  agentPath: testAgentPath,
})
