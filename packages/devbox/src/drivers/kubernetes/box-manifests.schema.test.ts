import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { CoreV1Api, NetworkingV1Api } from '@kubernetes/client-node'
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1'
import { PersistentVolumeClaim, Pod } from 'kubernetes-models/v1'
import { expect, it } from 'vitest'
import { waitFor } from '../../testing/devbox-support.ts'
import { boxNetworkPolicy, boxPod, workspaceClaim } from './box-manifests.ts'
import { startTestApiServer } from './testing/api-server.ts'
import { testBoxSettings } from './testing/test-box-settings.ts'

// What the driver's manifests become on the wire, through the client library's own serializer,
// is valid against Kubernetes' OpenAPI schemas (kubernetes-models' validators; decision 037).
it("sends a claim, a pod and a network policy that Kubernetes' schemas accept", async () => {
  const rootDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-kube-schema-'))
  const server = await startTestApiServer({ rootDir })
  try {
    const settings = testBoxSettings('/opt/sprout/templates')
    const kubeConfig = server.kubeConfig()
    const namespace = settings.namespace
    await kubeConfig.makeApiClient(CoreV1Api).createNamespacedPersistentVolumeClaim({
      namespace,
      body: workspaceClaim('schema', settings),
    })
    await kubeConfig
      .makeApiClient(NetworkingV1Api)
      .createNamespacedNetworkPolicy({ namespace, body: boxNetworkPolicy('schema', settings) })
    await kubeConfig.makeApiClient(CoreV1Api).createNamespacedPod({
      namespace,
      body: boxPod('schema', settings, { agentToken: 'schema-agent-token-0123456789' }),
    })
    // Running, so no folder of it is still being made when the server closes.
    await waitFor(async () => {
      const pod = await kubeConfig
        .makeApiClient(CoreV1Api)
        .readNamespacedPod({ namespace, name: 'sprout-box-schema' })
      return pod.status?.phase === 'Running'
    })
    const [claim, policy, pod] = server.created as Record<string, unknown>[]
    expect(() => new PersistentVolumeClaim(claim).validate()).not.toThrow()
    expect(() => new NetworkPolicy(policy).validate()).not.toThrow()
    expect(() => new Pod(pod).validate()).not.toThrow()
    // The serializer renamed the library's `_from` to the API's `from`.
    expect(policy).toMatchObject({ spec: { ingress: [{ from: [expect.any(Object)] }] } })
    expect(() => new Pod({ ...pod, spec: { containers: 'none' as never } }).validate()).toThrow()
  } finally {
    await server.close()
    await rm(rootDir, { recursive: true, force: true, maxRetries: 3 })
  }
})
