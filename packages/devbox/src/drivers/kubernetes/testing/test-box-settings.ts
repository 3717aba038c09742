import os from 'node:os'
import path from 'node:path'
import { bundleAgent } from '../agent/bundle-agent.ts'
import { boxImageSettings } from '../box-image.ts'
import type { BoxManifestSettings } from '../box-manifests.ts'

/** The in-box agent beside the driver, bundled as the box image has it: the tests' "image" is this machine. */
export const testAgentPath = bundleAgent(
  path.join(os.tmpdir(), 'sprout-box-agent', 'box-agent.cjs'),
)

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
