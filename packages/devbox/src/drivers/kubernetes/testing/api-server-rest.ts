import type { IncomingMessage, ServerResponse } from 'node:http'
import { claimsCollection, podsCollection } from './api-server-kubelet.ts'
import {
  alreadyExists,
  badRequest,
  type Collection,
  invalid,
  type KubernetesStatus,
  methodNotAllowed,
  notFound,
  pathNotFound,
  tooLarge,
} from './api-server-status.ts'
import type { createResourceStore, StoredObject } from './api-server-store.ts'

type Store = ReturnType<typeof createResourceStore>

export const policiesCollection: Collection = {
  group: 'networking.k8s.io',
  resource: 'networkpolicies',
  kind: 'NetworkPolicy',
}
const collections: Record<string, { collection: Collection; apiVersion: string }> = {
  '/api/v1/pods': { collection: podsCollection, apiVersion: 'v1' },
  '/api/v1/persistentvolumeclaims': { collection: claimsCollection, apiVersion: 'v1' },
  '/apis/networking.k8s.io/v1/networkpolicies': {
    collection: policiesCollection,
    apiVersion: 'networking.k8s.io/v1',
  },
}

/** kube-apiserver's default limit of a request body (3 MiB). */
const maxBodyBytes = 3 * 1024 * 1024
const discardBytes = 64 * 1024 * 1024
const dnsSubdomain = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/

export type ResourcePath = {
  prefix: string
  namespace: string
  resource: string
  name?: string
  subresource?: string
}

/** `/api/v1/namespaces/{ns}/pods/{name}/exec` and `/apis/{group}/{version}/namespaces/…`. */
export function parseResourcePath(pathname: string): ResourcePath | undefined {
  const match =
    /^(\/api\/v1|\/apis\/[a-z0-9.-]+\/v1)\/namespaces\/([a-z0-9-]+)\/([a-z]+)(?:\/([^/]+))?(?:\/([a-z]+))?$/.exec(
      pathname,
    )
  if (!match?.[1] || !match[2] || !match[3]) return undefined
  return {
    prefix: match[1],
    namespace: match[2],
    resource: match[3],
    name: match[4] === undefined ? undefined : decodeURIComponent(match[4]),
    subresource: match[5],
  }
}

/** Create, get, list, watch and delete, answered as kube-apiserver answers them. */
export async function handleRest(
  store: Store,
  request: IncomingMessage,
  response: ServerResponse,
  onCreate: (object: unknown) => void = () => {},
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost')
  const parsed = parseResourcePath(url.pathname)
  const entry = parsed && collections[`${parsed.prefix}/${parsed.resource}`]
  if (!parsed || !entry || parsed.subresource) return sendJson(response, 404, pathNotFound())
  const { collection, apiVersion } = entry
  const { namespace, name } = parsed
  const method = request.method ?? 'GET'

  if (method === 'GET' && name === undefined) {
    const watching = ['true', '1'].includes(url.searchParams.get('watch') ?? '')
    if (watching) return watch(store, collection, namespace, url, request, response)
    const { items, resourceVersion } = store.list(collection, namespace)
    return sendJson(response, 200, {
      kind: `${collection.kind}List`,
      apiVersion,
      metadata: { resourceVersion },
      items: items.filter(selectedBy(url)),
    })
  }
  if (method === 'POST' && name === undefined) {
    const body = await readBody(request)
    if (body === 'too-large') {
      response.setHeader('connection', 'close')
      return sendJson(response, 413, tooLarge())
    }
    let object: StoredObject
    try {
      object = JSON.parse(body) as StoredObject
    } catch {
      return sendJson(response, 400, badRequest('the request body is not JSON'))
    }
    onCreate(structuredClone(object))
    const objectName = object?.metadata?.name ?? ''
    if (!dnsSubdomain.test(objectName)) {
      return sendJson(
        response,
        422,
        invalid(
          collection,
          objectName,
          'metadata.name: Invalid value: a lowercase RFC 1123 subdomain is required',
        ),
      )
    }
    if (object.metadata.namespace && object.metadata.namespace !== namespace) {
      return sendJson(
        response,
        400,
        badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        ),
      )
    }
    const created = store.create(collection, namespace, {
      ...object,
      apiVersion,
      kind: collection.kind,
    })
    if (!created) return sendJson(response, 409, alreadyExists(collection, objectName))
    return sendJson(response, 201, created)
  }
  if (name === undefined) return sendJson(response, 405, methodNotAllowed())
  if (method === 'GET') {
    const found = store.get(collection, namespace, name)
    return found
      ? sendJson(response, 200, found)
      : sendJson(response, 404, notFound(collection, name))
  }
  if (method === 'DELETE') return remove(store, collection, namespace, name, response)
  return sendJson(response, 405, methodNotAllowed())
}

/**
 * A pod is marked for deletion and goes once the kubelet stopped it; a claim goes when no pod
 * uses it (the kubelet releases it), other objects at once.
 */
function remove(
  store: Store,
  collection: Collection,
  namespace: string,
  name: string,
  response: ServerResponse,
) {
  const found = store.get(collection, namespace, name)
  if (!found) return sendJson(response, 404, notFound(collection, name))
  if (collection === policiesCollection) {
    store.remove(collection, namespace, name)
    return sendJson(response, 200, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: {
        name,
        group: collection.group,
        kind: collection.resource,
        uid: found.metadata.uid,
      },
    })
  }
  if (found.metadata.deletionTimestamp) return sendJson(response, 200, found)
  const marked = store.update(collection, namespace, name, (object) => {
    object.metadata.deletionTimestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z')
  })
  return sendJson(response, 200, marked)
}

function watch(
  store: Store,
  collection: Collection,
  namespace: string,
  url: URL,
  request: IncomingMessage,
  response: ServerResponse,
) {
  const selected = selectedBy(url)
  response.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' })
  response.flushHeaders()
  const started = store.watch(
    collection,
    namespace,
    url.searchParams.get('resourceVersion') ?? undefined,
    (event) => {
      if (selected(event.object)) response.write(`${JSON.stringify(event)}\n`)
    },
  )
  if ('expired' in started) {
    response.end(`${JSON.stringify({ type: 'ERROR', object: started.expired })}\n`)
    return
  }
  const timeoutSeconds = Number(url.searchParams.get('timeoutSeconds') ?? 0)
  const timer =
    timeoutSeconds > 0 ? setTimeout(() => response.end(), timeoutSeconds * 1000) : undefined
  const stop = () => {
    clearTimeout(timer)
    started.stop()
  }
  request.on('close', stop)
  response.on('close', stop)
}

/** `fieldSelector=metadata.name=x` and `labelSelector=a=b,c=d`, the selectors the driver uses. */
function selectedBy(url: URL) {
  const fields = pairs(url.searchParams.get('fieldSelector'))
  const labels = pairs(url.searchParams.get('labelSelector'))
  return (object: StoredObject) =>
    fields.every(([field, value]) =>
      field === 'metadata.name'
        ? object.metadata.name === value
        : field === 'metadata.namespace'
          ? object.metadata.namespace === value
          : false,
    ) && labels.every(([label, value]) => object.metadata.labels?.[label] === value)
}

function pairs(selector: string | null): [string, string][] {
  if (!selector) return []
  return selector.split(',').map((part) => {
    const [key = '', value = ''] = part.split(/==?/)
    return [key.trim(), value.trim()]
  })
}

function readBody(request: IncomingMessage): Promise<string | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      // Past the limit the rest is read and dropped, so the client reads the 413, up to a bound.
      if (size > discardBytes) request.destroy()
      if (size > maxBodyBytes) {
        resolve('too-large')
        return
      }
      chunks.push(chunk)
    })
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown | KubernetesStatus,
) {
  const text = JSON.stringify(body)
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  })
  response.end(text)
}
