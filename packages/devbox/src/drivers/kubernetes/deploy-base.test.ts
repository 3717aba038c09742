import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
// The YAML reader @kubernetes/client-node itself loads manifests with (its loadAllYaml).
import { loadAll } from 'js-yaml'
import { Deployment } from 'kubernetes-models/apps/v1'
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1'
import { Role, RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1'
import {
  ConfigMap,
  type IContainer,
  type IPodSpec,
  PersistentVolumeClaim,
  Service,
  ServiceAccount,
} from 'kubernetes-models/v1'
import { describe, expect, it } from 'vitest'
import { boxImagePaths } from './box-image.ts'
import { boxNetworkPolicy } from './box-manifests.ts'
import { testBoxSettings } from './testing/test-box-settings.ts'

// deploy/kubernetes/, the kustomize base (docs/decisions/038-kubernetes-deploy-base.md): every
// object valid against Kubernetes' OpenAPI schemas, and its security fields as decided.
const repositoryRoot = path.join(import.meta.dirname, '../../../../..')
const baseDir = path.join(repositoryRoot, 'deploy/kubernetes')

type Manifest = {
  apiVersion: string
  kind: string
  metadata: { name: string; namespace?: string; labels?: Record<string, string> }
  [field: string]: unknown
}

const readYaml = (file: string) =>
  loadAll(readFileSync(path.join(baseDir, file), 'utf8')) as Manifest[]
const kustomization = readYaml('kustomization.yaml')[0] as unknown as { resources: string[] }
const manifests = kustomization.resources.flatMap(readYaml)

const validators: Record<string, (manifest: Manifest) => void> = {
  'apps/v1/Deployment': (manifest) => new Deployment(manifest as never).validate(),
  'v1/Service': (manifest) => new Service(manifest as never).validate(),
  'v1/ServiceAccount': (manifest) => new ServiceAccount(manifest as never).validate(),
  'v1/ConfigMap': (manifest) => new ConfigMap(manifest as never).validate(),
  'v1/PersistentVolumeClaim': (manifest) => new PersistentVolumeClaim(manifest as never).validate(),
  'networking.k8s.io/v1/Ingress': (manifest) => new Ingress(manifest as never).validate(),
  'networking.k8s.io/v1/NetworkPolicy': (manifest) =>
    new NetworkPolicy(manifest as never).validate(),
  'rbac.authorization.k8s.io/v1/Role': (manifest) => new Role(manifest as never).validate(),
  'rbac.authorization.k8s.io/v1/RoleBinding': (manifest) =>
    new RoleBinding(manifest as never).validate(),
}

const ofKind = <Shape>(kind: string) =>
  manifests.filter((manifest) => manifest.kind === kind) as unknown as (Manifest & Shape)[]
const named = <Shape>(kind: string, name: string) => {
  const found = ofKind<Shape>(kind).find((manifest) => manifest.metadata.name === name)
  if (!found) throw new Error(`deploy/kubernetes/ has no ${kind} named ${name}`)
  return found
}
type DeploymentShape = {
  spec: { template: { metadata: { labels: Record<string, string> }; spec: IPodSpec } }
}
type RoleShape = { rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[] }
const boxPolicy = boxNetworkPolicy('any', testBoxSettings('/opt/sprout/templates'))

describe('deploy/kubernetes/', () => {
  it('lists every manifest of the folder in kustomization.yaml, and no Secret', () => {
    const files = readdirSync(baseDir).filter((file) => file.endsWith('.yaml'))
    const notListed = ['kustomization.yaml', 'secret.example.yaml']
    expect([...kustomization.resources].sort()).toEqual(
      files.filter((file) => !notListed.includes(file)).sort(),
    )
    expect(manifests.map((manifest) => manifest.kind)).not.toContain('Secret')
  })

  it("passes Kubernetes' own schemas, namespace left to the overlay", () => {
    for (const manifest of manifests) {
      const validate = validators[`${manifest.apiVersion}/${manifest.kind}`]
      expect(validate, `${manifest.kind} ${manifest.metadata.name}`).toBeDefined()
      expect(() => validate?.(manifest)).not.toThrow()
      expect(manifest.metadata.namespace).toBeUndefined()
    }
    expect(manifests.length).toBeGreaterThanOrEqual(11)
  })

  it('runs every container non-root, without privilege escalation or capabilities', () => {
    for (const deployment of ofKind<DeploymentShape>('Deployment')) {
      const pod = deployment.spec.template.spec
      expect(pod.securityContext).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      })
      expect(pod.securityContext?.runAsUser).toBeGreaterThan(0)
      for (const container of [...pod.containers, ...(pod.initContainers ?? [])] as IContainer[]) {
        expect(container.securityContext, container.name).toMatchObject({
          allowPrivilegeEscalation: false,
          privileged: false,
          readOnlyRootFilesystem: true,
          runAsNonRoot: true,
          capabilities: { drop: ['ALL'] },
        })
        expect(container.securityContext?.capabilities?.add).toBeUndefined()
      }
      expect(pod.hostNetwork ?? false).toBe(false)
      expect(pod.hostPID ?? false).toBe(false)
    }
  })

  it('grants Sprout its namespace only: pods, port-forward, logs, claims, policies; no exec', () => {
    expect(manifests.map((manifest) => manifest.kind)).not.toContain('ClusterRole')
    expect(manifests.map((manifest) => manifest.kind)).not.toContain('ClusterRoleBinding')
    const allowed: Record<string, string[]> = {
      pods: ['create', 'get', 'list', 'watch', 'delete'],
      'pods/portforward': ['create', 'get'],
      'pods/log': ['get'],
      persistentvolumeclaims: ['create', 'get', 'delete'],
      networkpolicies: ['create', 'get', 'delete'],
    }
    for (const role of ofKind<RoleShape>('Role')) {
      for (const rule of role.rules) {
        expect(rule.apiGroups.every((group) => ['', 'networking.k8s.io'].includes(group))).toBe(
          true,
        )
        for (const resource of rule.resources) {
          expect(Object.keys(allowed), resource).toContain(resource)
          for (const verb of rule.verbs) expect(allowed[resource], resource).toContain(verb)
        }
      }
    }
    const binding = named<{ roleRef: { kind: string; name: string }; subjects: unknown[] }>(
      'RoleBinding',
      'sprout-boxes',
    )
    expect(binding.roleRef).toMatchObject({ kind: 'Role', name: 'sprout-boxes' })
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'sprout' }])
    const sprout = named<DeploymentShape>('Deployment', 'sprout').spec.template.spec
    expect(sprout.serviceAccountName).toBe('sprout')
    const proxy = named<DeploymentShape>('Deployment', 'sprout-egress-proxy').spec.template.spec
    expect(proxy.automountServiceAccountToken).toBe(false)
  })

  it("labels the egress proxy and Sprout as the boxes' network policy expects", () => {
    const [egress] = boxPolicy.spec?.egress ?? []
    const proxy = named<DeploymentShape>('Deployment', 'sprout-egress-proxy')
    expect(proxy.spec.template.metadata.labels).toMatchObject(
      egress?.to?.[0]?.podSelector?.matchLabels ?? { missing: 'selector' },
    )
    const proxyPorts = proxy.spec.template.spec.containers[0]?.ports ?? []
    expect(proxyPorts.map((port) => port.containerPort)).toContain(egress?.ports?.[0]?.port)
    const [ingress] = boxPolicy.spec?.ingress ?? []
    const sprout = named<DeploymentShape>('Deployment', 'sprout')
    expect(sprout.spec.template.metadata.labels).toMatchObject(
      ingress?._from?.[0]?.podSelector?.matchLabels ?? { missing: 'selector' },
    )
    // And only the boxes may use the proxy.
    const proxyPolicy = named<{ spec: { ingress: { from: unknown[] }[] } }>(
      'NetworkPolicy',
      'sprout-egress-proxy',
    )
    expect(proxyPolicy.spec.ingress[0]?.from).toEqual([
      { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'sprout-box' } } },
    ])
  })

  it("sets only settings Sprout reads, and the Secret's two from sprout-secrets", () => {
    const configSource = readFileSync(
      path.join(repositoryRoot, 'apps/server/src/config/config.ts'),
      'utf8',
    )
    const settings = new Set(
      [...configSource.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]),
    )
    const sprout = named<DeploymentShape>('Deployment', 'sprout').spec.template.spec
    const container = sprout.containers[0]
    const configMap = named<{ data: Record<string, string> }>('ConfigMap', 'sprout-settings')
    // HOME is the process's, not Sprout's: a writable one on a read-only root.
    const names = [
      ...Object.keys(configMap.data),
      ...(container?.env ?? []).map((variable) => variable.name).filter((name) => name !== 'HOME'),
    ]
    for (const name of names) expect(settings, name).toContain(name)
    const fromSecret = (container?.env ?? []).filter((variable) => variable.valueFrom?.secretKeyRef)
    expect(fromSecret.map((variable) => variable.name).sort()).toEqual([
      'DATABASE_URL',
      'VAULT_KEY',
    ])
    expect(
      fromSecret.every((variable) => variable.valueFrom?.secretKeyRef?.name === 'sprout-secrets'),
    ).toBe(true)
    expect(configMap.data.DEVBOX_DRIVER).toBe('kubernetes')
    const example = readYaml('secret.example.yaml')[0] as Manifest & {
      stringData: Record<string, string>
    }
    expect(Object.keys(example.stringData).sort()).toEqual(['DATABASE_URL', 'VAULT_KEY'])
  })

  it('routes the product and both wildcard origins to Sprout, SHARED_DIR on a shared claim', () => {
    const ingress = named<{ spec: { rules: { host: string }[] } }>('Ingress', 'sprout')
    const hosts = ingress.spec.rules.map((rule) => rule.host)
    const configMap = named<{ data: Record<string, string> }>('ConfigMap', 'sprout-settings')
    expect(hosts).toEqual([
      new URL(configMap.data.PUBLIC_URL ?? '').hostname,
      `*.${configMap.data.PREVIEW_DOMAIN}`,
      `*.${configMap.data.APPS_DOMAIN}`,
    ])
    const claim = named<{ spec: { accessModes: string[] } }>(
      'PersistentVolumeClaim',
      'sprout-shared',
    )
    expect(claim.spec.accessModes).toEqual(['ReadWriteMany'])
    const sprout = named<DeploymentShape>('Deployment', 'sprout').spec
    expect(sprout.template.spec.volumes).toContainEqual({
      name: 'shared',
      persistentVolumeClaim: { claimName: 'sprout-shared' },
    })
    const sharedDir = sprout.template.spec.containers[0]?.env?.find(
      (variable) => variable.name === 'SHARED_DIR',
    )
    expect(sprout.template.spec.containers[0]?.volumeMounts).toContainEqual({
      name: 'shared',
      mountPath: sharedDir?.value,
    })
  })

  it('builds both images from files that exist, run as the base and the driver expect', () => {
    const dockerfile = (name: string) =>
      readFileSync(path.join(repositoryRoot, 'deploy', name, 'Dockerfile'), 'utf8')
    for (const name of ['box-image', 'sprout-image']) {
      for (const [, source] of dockerfile(name).matchAll(/^COPY (?!--from)(\S+) /gm)) {
        expect(existsSync(path.join(repositoryRoot, source ?? '')), `${name}: ${source}`).toBe(true)
      }
    }
    const sprout = dockerfile('sprout-image')
    const pod = named<DeploymentShape>('Deployment', 'sprout').spec.template.spec
    expect(sprout).toContain(
      `USER ${pod.securityContext?.runAsUser}:${pod.securityContext?.runAsGroup}`,
    )
    for (const variable of ['DATA_DIR', 'SHARED_DIR']) {
      const value = pod.containers[0]?.env?.find((each) => each.name === variable)?.value
      expect(sprout, variable).toContain(`${variable}=${value}`)
    }
    const [, command] = /^CMD \[.*"(\S+\.ts)"\]$/m.exec(sprout) ?? []
    expect(existsSync(path.join(repositoryRoot, command ?? ''))).toBe(true)
    const egress = named<DeploymentShape>('Deployment', 'sprout-egress-proxy').spec.template.spec
    const egressEntry = egress.containers[0]?.command?.at(-1) ?? ''
    expect(existsSync(path.join(repositoryRoot, egressEntry)), egressEntry).toBe(true)
    expect(dockerfile('box-image')).toContain(`"${boxImagePaths.agentPath}"`)
  })
})
