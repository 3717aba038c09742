import { lstat, readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import {
  type EncodedSourceMap,
  originalPositionFor,
  sourceContentFor,
  TraceMap,
} from '@jridgewell/trace-mapping'
import { deployIdPattern, isValidAppId } from '@sprout/devbox/deploy-id.ts'

/** A stack frame as the error ingest keeps it (error-monitoring/grouping.ts `Frame`). */
export type StackFrame = {
  function: string
  /** The script's URL (`https://my-app.apps.example.com/assets/index-x.js`) or a source path. */
  path: string
  line?: number
  column?: number
  inApp: boolean
}

/** Parsed maps kept in memory, the most recently used last; a map is parsed once. */
const cachedMaps = 32
/** A script without a map is looked for again after this long (its deploy may be under way). */
const missRetryMs = 10_000
/** How far up from a line the enclosing function's name is looked for. */
const functionSearchLines = 200
/** Distinct preview modules read for one event (Sentry sends up to 50 frames). */
const previewModulesPerEvent = 5
/** A preview module's map is used this long: the file may be edited (and served anew) after. */
const previewMapMs = 10_000
/** A module of the preview as Vite serves it (`/src/App.tsx?t=…`), not a dependency. */
const previewModulePath = /^\/src\/[\w./@~+-]+\.(?:[cm]?[jt]sx?)$/
/** Vite's dev server appends each module's map to its code. */
const inlineMap =
  /\/\/# sourceMappingURL=data:application\/json;(?:charset=utf-8;)?base64,([A-Za-z0-9+/=]+)\s*$/

/**
 * A module of an app's running preview, as its dev server serves it, or undefined when the app has
 * no running preview (error-monitoring/preview-modules.ts).
 */
export type PreviewModuleReader = (
  applicationId: string,
  pathAndQuery: string,
) => Promise<string | undefined>

const safeSegment = /^[\w.@~+-]+$/

/**
 * Maps a deployed app's minified browser frames back to source with the hidden source maps kept
 * beside each deploy, older ones included (decision 016), and the preview's frames with the maps
 * its dev server appends to each module (docs/product/error-monitoring.md "Reporters").
 * Frames without a map stay as they are.
 */
export function createSymbolicator(deploysDir: string, readPreviewModule?: PreviewModuleReader) {
  const maps = new Map<string, TraceMap | null>()
  /** A script's map by application and URL path; misses are retried after `missRetryMs`. */
  const resolved = new Map<string, { map: TraceMap | null; until: number }>()
  const previewResolved = new Map<string, { map: TraceMap | null; until: number }>()
  const sourceLines = new WeakMap<TraceMap, Map<string, string[] | undefined>>()

  const linesOf = (map: TraceMap, source: string) => {
    const bySource = sourceLines.get(map) ?? new Map<string, string[] | undefined>()
    sourceLines.set(map, bySource)
    if (!bySource.has(source)) bySource.set(source, sourceContentFor(map, source)?.split('\n'))
    return bySource.get(source)
  }

  const loadMap = async (file: string): Promise<TraceMap | null> => {
    const cached = maps.get(file)
    if (cached) {
      maps.delete(file)
      maps.set(file, cached)
      return cached
    }
    const stats = await lstat(file).catch(() => undefined)
    if (!stats?.isFile()) return null
    try {
      const map = new TraceMap(JSON.parse(await readFile(file, 'utf8')) as EncodedSourceMap)
      maps.set(file, map)
      if (maps.size > cachedMaps) maps.delete(maps.keys().next().value as string)
      return map
    } catch {
      return null
    }
  }

  const cachedMapFor = async (applicationId: string, frameUrl: string) => {
    const key = `${applicationId}\0${frameUrl}`
    const preview = previewPathOf(frameUrl)
    // The preview's maps are few and short-lived, kept apart from the deploys' many.
    const store = preview ? previewResolved : resolved
    const hit = store.get(key)
    if (hit && hit.until > Date.now()) return hit.map
    const map = preview
      ? await previewMap(readPreviewModule, applicationId, preview)
      : await mapFor(applicationId, frameUrl)
    if (store.size >= (preview ? cachedMaps : cachedMaps * 32)) store.clear()
    // A deploy's scripts are named by their content hash: a found map stays right for that URL.
    const until =
      Date.now() + (preview ? previewMapMs : map ? Number.POSITIVE_INFINITY : missRetryMs)
    store.set(key, { map, until })
    return map
  }

  const mapFor = async (applicationId: string, frameUrl: string) => {
    let pathname: string
    try {
      pathname = new URL(frameUrl, 'http://app').pathname
    } catch {
      return null
    }
    const segments = pathname.split('/').filter(Boolean)
    if (segments.length === 0 || !segments.every((part) => safeSegment.test(part) && part !== '..'))
      return null
    if (!/\.m?js$/.test(pathname)) return null
    const appDirectory = path.join(deploysDir, applicationId)
    const deploys = (await readdir(appDirectory).catch(() => []))
      .filter((name) => deployIdPattern.test(name))
      .sort()
      .reverse()
    for (const deployId of deploys) {
      for (const base of ['client', '']) {
        const map = await loadMap(`${path.join(appDirectory, deployId, base, ...segments)}.map`)
        if (map) return map
      }
    }
    return null
  }

  return async (applicationId: string, frames: StackFrame[]): Promise<StackFrame[]> => {
    if (!isValidAppId(applicationId)) return frames
    const previewModules = previewModulesToRead(frames)
    return await Promise.all(
      frames.map(async (frame) => {
        if (frame.line === undefined || frame.column === undefined) return frame
        const preview = previewPathOf(frame.path)
        if (preview && !previewModules.has(preview)) return frame
        const map = await cachedMapFor(applicationId, frame.path)
        if (!map) return frame
        // Sentry's columns are 1-based, trace-mapping's 0-based.
        const position = originalPositionFor(map, {
          line: frame.line,
          column: Math.max(0, frame.column - 1),
        })
        if (position.source === null || position.line === null) return frame
        const lines = linesOf(map, position.source)
        // A preview module is one file: its path in the workspace is its URL's.
        return {
          function: (lines && enclosingFunction(lines, position.line)) ?? frame.function,
          path: preview
            ? new URL(preview, 'http://app').pathname.slice(1)
            : sourcePath(position.source),
          line: position.line,
          column: (position.column ?? 0) + 1,
          inApp: !position.source.includes('node_modules'),
        }
      }),
    )
  }
}

/** The map Vite's dev server appended to a module of the app's running preview. */
async function previewMap(
  readPreviewModule: PreviewModuleReader | undefined,
  applicationId: string,
  pathAndQuery: string,
): Promise<TraceMap | null> {
  if (!readPreviewModule) return null
  const code = await readPreviewModule(applicationId, pathAndQuery).catch(() => undefined)
  const encoded = code && inlineMap.exec(code)?.[1]
  if (!encoded) return null
  try {
    return new TraceMap(
      JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as EncodedSourceMap,
    )
  } catch {
    return null
  }
}

/**
 * The preview modules an event's frames are mapped with, those nearest the throw first: an event
 * makes at most `previewModulesPerEvent` reads of the app's dev server, whatever its frames name.
 */
function previewModulesToRead(frames: StackFrame[]): Set<string> {
  const modules = new Set<string>()
  for (let index = frames.length - 1; index >= 0; index -= 1) {
    const preview = previewPathOf(frames[index]?.path ?? '')
    if (preview && modules.size < previewModulesPerEvent) modules.add(preview)
  }
  return modules
}

/** The path and query of a frame in one of the preview's own modules, else undefined. */
function previewPathOf(frameUrl: string): string | undefined {
  if (!URL.canParse(frameUrl)) return undefined
  const url = new URL(frameUrl)
  return previewModulePath.test(url.pathname) ? `${url.pathname}${url.search}` : undefined
}

/** `../../src/App.tsx` or `webpack:///src/App.tsx` as the app's own path, `src/App.tsx`. */
function sourcePath(source: string): string {
  const withoutScheme = source.replace(/^[a-z]+:\/\/\/?/i, '')
  return path.posix.normalize(withoutScheme).replace(/^(\.\.\/)+|^\.\//, '')
}

const functionPatterns = [
  /\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(/,
  /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)/,
  /^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{\s*$/,
]
const notFunctions = new Set(['if', 'for', 'while', 'switch', 'catch', 'return'])

/**
 * The name of the function a source line is in: the nearest declaration at or above it.
 * Minifiers rename functions, and a frame's position points into the body, not at the name.
 */
function enclosingFunction(lines: string[], line: number): string | undefined {
  for (let index = line - 1; index >= 0 && index >= line - functionSearchLines; index -= 1) {
    for (const pattern of functionPatterns) {
      const name = pattern.exec(lines[index] ?? '')?.[1]
      if (name && !notFunctions.has(name)) return name
    }
  }
  return undefined
}
