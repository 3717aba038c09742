/**
 * The `Status` objects a Kubernetes API server answers errors with, worded as kube-apiserver
 * words them (k8s.io/apimachinery/pkg/api/errors), so the client library parses what it would
 * parse from a real cluster.
 */
export type KubernetesStatus = {
  kind: 'Status'
  apiVersion: 'v1'
  metadata: Record<string, never>
  status: 'Success' | 'Failure'
  message?: string
  reason?: string
  details?: {
    name?: string
    group?: string
    kind?: string
    causes?: { reason: string; message: string }[]
  }
  code: number
}

/** A collection as the API names it: `pods`, or `networkpolicies` of `networking.k8s.io`. */
export type Collection = { group: string; resource: string; kind: string }

function failure(
  code: number,
  reason: string,
  message: string,
  details?: KubernetesStatus['details'],
): KubernetesStatus {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  }
}

const qualified = (collection: Collection) =>
  collection.group ? `${collection.resource}.${collection.group}` : collection.resource

const detailsOf = (collection: Collection, name: string) => ({
  name,
  ...(collection.group ? { group: collection.group } : {}),
  kind: collection.resource,
})

export const notFound = (collection: Collection, name: string) =>
  failure(
    404,
    'NotFound',
    `${qualified(collection)} "${name}" not found`,
    detailsOf(collection, name),
  )

export const alreadyExists = (collection: Collection, name: string) =>
  failure(
    409,
    'AlreadyExists',
    `${qualified(collection)} "${name}" already exists`,
    detailsOf(collection, name),
  )

export const invalid = (collection: Collection, name: string, message: string) =>
  failure(
    422,
    'Invalid',
    `${collection.kind} "${name}" is invalid: ${message}`,
    detailsOf(collection, name),
  )

export const badRequest = (message: string) => failure(400, 'BadRequest', message)

export const tooLarge = () => failure(413, 'RequestEntityTooLarge', 'Request entity too large')

export const methodNotAllowed = () =>
  failure(
    405,
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
  )

export const pathNotFound = () =>
  failure(404, 'NotFound', 'the server could not find the requested resource')

/** A watch resumed from a version the server no longer keeps: the client must list again. */
export const expired = (resourceVersion: string) =>
  failure(410, 'Expired', `too old resource version: ${resourceVersion}`)

/** What exec's status channel carries for a command that ended with `exitCode`. */
export function execStatus(command: string[], exitCode: number) {
  if (exitCode === 0) return { metadata: {}, status: 'Success' }
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${exitCode}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(exitCode) }] },
  }
}
