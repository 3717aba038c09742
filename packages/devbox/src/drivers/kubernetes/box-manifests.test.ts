import { describe, expect, it } from 'vitest'
import { assertBoxId, boxNetworkPolicy, boxPod, workspaceClaim } from './box-manifests.ts'
import { testBoxSettings } from './testing/test-box-settings.ts'

const settings = testBoxSettings('/opt/sprout/templates')
const agentToken = 'agent-token-of-abc-0123456789'

describe("a box's manifests", () => {
  it('confines the pod: non-root 61000, no escalation, no capability, RuntimeDefault, read-only root', () => {
    const { spec } = boxPod('abc', settings, { agentToken })
    expect(spec?.automountServiceAccountToken).toBe(false)
    expect(spec?.enableServiceLinks).toBe(false)
    expect(spec?.runtimeClassName).toBe('gvisor')
    expect(spec?.hostNetwork).toBeUndefined()
    expect(spec?.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: 61000,
      runAsGroup: 61000,
      seccompProfile: { type: 'RuntimeDefault' },
    })
    expect(spec?.containers).toHaveLength(1)
    const [container] = spec?.containers ?? []
    expect(container?.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      privileged: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
    })
    expect(container?.resources).toEqual({
      requests: { cpu: '1', memory: '1024Mi' },
      limits: { cpu: '1', memory: '1024Mi' },
    })
  })

  it('writes only to the workspace claim and a scratch /tmp', () => {
    const { spec } = boxPod('abc', settings, { agentToken })
    expect(spec?.containers[0]?.volumeMounts).toEqual([
      { name: 'workspace', mountPath: '/home/sprout/workspace' },
      { name: 'tmp', mountPath: '/tmp' },
    ])
    expect(spec?.volumes).toEqual([
      { name: 'workspace', persistentVolumeClaim: { claimName: 'sprout-box-abc' } },
      { name: 'tmp', emptyDir: { sizeLimit: '1Gi' } },
    ])
    expect(workspaceClaim('abc', settings).spec?.resources?.requests).toEqual({ storage: '1024Mi' })
  })

  it('leaves out runtimeClassName when none is set', () => {
    const { runtimeClassName: _, ...withoutRuntime } = settings
    expect(boxPod('abc', withoutRuntime, { agentToken }).spec).not.toHaveProperty(
      'runtimeClassName',
    )
  })

  it('runs the in-box agent as its main process, with its token and port (decision 040)', () => {
    const [container] = boxPod('abc', settings, { agentToken }).spec?.containers ?? []
    expect(container?.command).toEqual(['node', settings.agentPath])
    expect(container?.env).toEqual(
      expect.arrayContaining([
        { name: 'SPROUT_AGENT_TOKEN', value: agentToken },
        { name: 'SPROUT_AGENT_PORT', value: '7070' },
      ]),
    )
    expect(container?.ports).toContainEqual({ name: 'agent', containerPort: 7070, protocol: 'TCP' })
  })

  it("denies every connection but Sprout's to the dev server and agent, and the box's to the egress proxy", () => {
    const { spec } = boxNetworkPolicy('abc', settings)
    expect(spec?.podSelector).toEqual({ matchLabels: { 'sprout.dev/box': 'abc' } })
    expect(spec?.policyTypes).toEqual(['Ingress', 'Egress'])
    expect(spec?.ingress).toEqual([
      {
        _from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'sprout' } } }],
        ports: [
          { protocol: 'TCP', port: 3000 },
          { protocol: 'TCP', port: 7070 },
        ],
      },
    ])
    expect(spec?.egress).toEqual([
      {
        to: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'sprout-egress-proxy' } } }],
        ports: [{ protocol: 'TCP', port: 3128 }],
      },
    ])
  })

  it("names the egress proxy, with the box's credentials, only when Sprout found it (decision 039)", () => {
    const variables = (proxyUrl?: string) =>
      Object.fromEntries(
        (boxPod('abc', settings, { agentToken, proxyUrl }).spec?.containers[0]?.env ?? []).map(
          (variable) => [variable.name, variable.value],
        ),
      )
    const proxyUrl = 'http://abc:token@10.96.0.12:3128'
    expect(variables(proxyUrl)).toMatchObject({
      HTTP_PROXY: proxyUrl,
      HTTPS_PROXY: proxyUrl,
      NODE_USE_ENV_PROXY: '1',
      NO_PROXY: 'localhost,127.0.0.1,::1',
    })
    expect(variables()).not.toHaveProperty('HTTP_PROXY')
  })

  it('takes only ids that are DNS labels', () => {
    expect(() => assertBoxId('contract-box')).not.toThrow()
    for (const id of ['../escape', 'Upper', '', '-dash', 'a'.repeat(53), 'with/slash']) {
      expect(() => assertBoxId(id)).toThrow()
    }
  })
})
