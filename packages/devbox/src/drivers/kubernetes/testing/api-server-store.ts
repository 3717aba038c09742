import { randomUUID } from 'node:crypto'
import { type Collection, expired } from './api-server-status.ts'

/** The parts of an object the test API server reads; the rest is kept as sent. */
export type StoredObject = {
  apiVersion?: string
  kind?: string
  metadata: {
    name: string
    namespace: string
    uid: string
    resourceVersion: string
    creationTimestamp: string
    deletionTimestamp?: string
    labels?: Record<string, string>
    annotations?: Record<string, string>
  }
  spec?: Record<string, unknown>
  status?: Record<string, unknown>
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED'
export type StoredEvent = { type: WatchEventType; object: StoredObject }
type Change = StoredEvent & { key: string; version: number }
type Watcher = { matches: (key: string) => boolean; send: (event: StoredEvent) => void }

/** Changes kept for watches that resume; an older resourceVersion gets 410 Expired. */
const keptChanges = 2000

/**
 * Objects by collection and namespace with one resourceVersion counter, as etcd's revision is
 * one for the whole cluster: a watch resumes from any version it saw, in any collection.
 */
export function createResourceStore() {
  const objects = new Map<string, Map<string, StoredObject>>()
  const changes: Change[] = []
  const watchers = new Set<Watcher>()
  let version = 1
  const keyOf = (collection: Collection, namespace: string) =>
    `${collection.group}/${collection.resource}/${namespace}`
  const itemsOf = (key: string) => {
    const items = objects.get(key) ?? new Map<string, StoredObject>()
    objects.set(key, items)
    return items
  }
  const record = (key: string, type: WatchEventType, object: StoredObject) => {
    const copy = structuredClone(object)
    changes.push({ key, type, object: copy, version: Number(copy.metadata.resourceVersion) })
    if (changes.length > keptChanges) changes.shift()
    for (const watcher of watchers) if (watcher.matches(key)) watcher.send({ type, object: copy })
  }

  return {
    get(collection: Collection, namespace: string, name: string): StoredObject | undefined {
      const found = itemsOf(keyOf(collection, namespace)).get(name)
      return found && structuredClone(found)
    },

    list(collection: Collection, namespace: string) {
      return {
        items: [...itemsOf(keyOf(collection, namespace)).values()].map((item) =>
          structuredClone(item),
        ),
        resourceVersion: String(version),
      }
    },

    /** Undefined when the name is taken. */
    create(
      collection: Collection,
      namespace: string,
      body: StoredObject,
    ): StoredObject | undefined {
      const key = keyOf(collection, namespace)
      const items = itemsOf(key)
      if (items.has(body.metadata.name)) return undefined
      version += 1
      const object: StoredObject = {
        ...body,
        metadata: {
          ...body.metadata,
          namespace,
          uid: randomUUID(),
          resourceVersion: String(version),
          creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        },
      }
      items.set(object.metadata.name, object)
      record(key, 'ADDED', object)
      return structuredClone(object)
    },

    /** Applies `change` to the stored object and tells watchers; undefined when it is gone. */
    update(
      collection: Collection,
      namespace: string,
      name: string,
      change: (object: StoredObject) => void,
    ): StoredObject | undefined {
      const key = keyOf(collection, namespace)
      const object = itemsOf(key).get(name)
      if (!object) return undefined
      change(object)
      version += 1
      object.metadata.resourceVersion = String(version)
      record(key, 'MODIFIED', object)
      return structuredClone(object)
    },

    remove(collection: Collection, namespace: string, name: string): StoredObject | undefined {
      const key = keyOf(collection, namespace)
      const object = itemsOf(key).get(name)
      if (!object) return undefined
      itemsOf(key).delete(name)
      version += 1
      object.metadata.resourceVersion = String(version)
      record(key, 'DELETED', object)
      return structuredClone(object)
    },

    /**
     * Sends the changes after `fromVersion` then every new one; without a version (or "0"),
     * the current objects as ADDED first, as kube-apiserver does. Returns the way to stop, or
     * the 410 Status when the version is older than the changes kept.
     */
    watch(
      collection: Collection,
      namespace: string,
      fromVersion: string | undefined,
      send: (event: StoredEvent) => void,
    ) {
      const key = keyOf(collection, namespace)
      if (fromVersion === undefined || fromVersion === '' || fromVersion === '0') {
        for (const object of itemsOf(key).values()) {
          send({ type: 'ADDED', object: structuredClone(object) })
        }
      } else {
        const from = Number(fromVersion)
        const dropped = changes.length >= keptChanges
        const oldest = changes[0]?.version ?? version
        if (!Number.isInteger(from) || from > version || (dropped && from < oldest - 1)) {
          return { expired: expired(fromVersion) }
        }
        for (const change of changes) {
          if (change.key === key && change.version > from)
            send({ type: change.type, object: change.object })
        }
      }
      const watcher: Watcher = { matches: (changed) => changed === key, send }
      watchers.add(watcher)
      return { stop: () => watchers.delete(watcher) }
    },

    /** Every object of a collection in every namespace (the kubelet's view of pods). */
    all(collection: Collection): StoredObject[] {
      const prefix = `${collection.group}/${collection.resource}/`
      return [...objects.entries()]
        .filter(([key]) => key.startsWith(prefix))
        .flatMap(([, items]) => [...items.values()].map((item) => structuredClone(item)))
    },

    /** Tells `listener` of every change of a collection in every namespace. */
    subscribe(collection: Collection, listener: (event: StoredEvent) => void) {
      const prefix = `${collection.group}/${collection.resource}/`
      const watcher: Watcher = { matches: (key) => key.startsWith(prefix), send: listener }
      watchers.add(watcher)
      return () => watchers.delete(watcher)
    },
  }
}
