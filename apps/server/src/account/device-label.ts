import { DEVICE_UNKNOWN } from '@sprout/protocol/api/account.ts'

// Order matters: Edge and Opera name Chrome too, Chrome names Safari, Android names Linux.
const browsers: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
  [/curl\//i, 'curl'],
  [/node|undici/i, 'Node.js'],
]

const systems: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
]

const firstMatch = (userAgent: string, table: [RegExp, string][]) =>
  table.find(([pattern]) => pattern.test(userAgent))?.[1]

/** 'Chrome on macOS' from a user agent: the browser and the system, short. */
export function deviceLabel(userAgent: string | null | undefined): string {
  if (!userAgent) return DEVICE_UNKNOWN
  const browser = firstMatch(userAgent, browsers)
  const system = firstMatch(userAgent, systems)
  if (browser && system) return `${browser} on ${system}`
  return browser ?? system ?? DEVICE_UNKNOWN
}
