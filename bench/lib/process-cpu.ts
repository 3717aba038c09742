// CPU time a process (and its descendants) has used, from /proc: a figure the machine's load
// does not scale, unlike requests per second on a shared 2-core machine.
import { readdirSync, readFileSync } from 'node:fs'

const ticksPerSecond = 100

function stat(pid: number): { parent: number; cpuMs: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces: the fields after it follow its ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
    const parent = Number(fields[1])
    const cpuTicks = Number(fields[11]) + Number(fields[12])
    return { parent, cpuMs: (cpuTicks * 1000) / ticksPerSecond }
  } catch {
    return undefined
  }
}

/** User + system CPU of `pid` so far, in ms (10 ms resolution). */
export function processCpuMs(pid: number): number {
  return stat(pid)?.cpuMs ?? Number.NaN
}

/** User + system CPU of the live descendants of `pid` (not `pid` itself) so far, in ms. */
export function descendantsCpuMs(pid: number): number {
  const children = new Map<number, number[]>()
  const cpu = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    const child = Number(entry)
    if (!Number.isInteger(child)) continue
    const found = stat(child)
    if (!found) continue
    cpu.set(child, found.cpuMs)
    children.set(found.parent, [...(children.get(found.parent) ?? []), child])
  }
  let total = 0
  const pending = [...(children.get(pid) ?? [])]
  while (pending.length > 0) {
    const next = pending.pop() as number
    total += cpu.get(next) ?? 0
    pending.push(...(children.get(next) ?? []))
  }
  return total
}
