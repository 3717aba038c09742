import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

/** One process as /proc shows it (what a root test may read of any process). */
export type ProcessEntry = {
  pid: number
  parentPid: number
  state: string
  /** Clock ticks since boot: tells a process from a later one given the same pid. */
  startTime: string
  commandLine: string
  environment: string
  workingDirectory: string
  pidNamespace: string
}

function readProcess(pid: number): ProcessEntry | undefined {
  const read = (file: string) => {
    try {
      return readFileSync(`/proc/${pid}/${file}`, 'utf8')
    } catch {
      return ''
    }
  }
  const link = (file: string) => {
    try {
      return readlinkSync(`/proc/${pid}/${file}`)
    } catch {
      return ''
    }
  }
  const stat = read('stat')
  if (!stat) return undefined
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return {
    pid,
    parentPid: Number(fields[1]),
    state: fields[0] ?? '',
    startTime: fields[19] ?? '',
    commandLine: read('cmdline').replaceAll('\0', ' ').trim(),
    environment: read('environ').replaceAll('\0', '\n'),
    workingDirectory: link('cwd'),
    pidNamespace: link('ns/pid'),
  }
}

export function listProcesses(): ProcessEntry[] {
  const entries: ProcessEntry[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const entry = readProcess(Number(name))
    if (entry) entries.push(entry)
  }
  return entries
}

/**
 * Everything one server started, found three ways so orphans are found too: descendants seen while
 * it ran (`observe`), processes whose command line, environment or working directory names its
 * DATA_DIR, and every process in a PID namespace of those (inside bubblewrap), with descendants.
 */
export function createProcessCensus(input: { rootPid: number; marker: string }) {
  const seen = new Map<number, string>()
  // The machine's own PID namespaces never count: only a box's private one does. A namespace
  // that could not be read (a process exiting) is no namespace at all.
  const sharedNamespaces = new Set([
    '',
    readProcess(process.pid)?.pidNamespace,
    readProcess(1)?.pidNamespace,
  ])
  const excluded = new Set<number>([process.pid])
  for (let pid = process.ppid; pid > 1; ) {
    excluded.add(pid)
    pid = readProcess(pid)?.parentPid ?? 0
  }

  const belongs = (processes: ProcessEntry[]): ProcessEntry[] => {
    const ours = new Map<number, ProcessEntry>()
    const namespaces = new Set<string>()
    for (const entry of processes) {
      if (excluded.has(entry.pid)) continue
      const named =
        entry.commandLine.includes(input.marker) ||
        entry.environment.includes(input.marker) ||
        entry.workingDirectory.includes(input.marker)
      if (entry.pid === input.rootPid || seen.get(entry.pid) === entry.startTime || named) {
        ours.set(entry.pid, entry)
        if (!sharedNamespaces.has(entry.pidNamespace)) namespaces.add(entry.pidNamespace)
      }
    }
    for (let grew = true; grew; ) {
      grew = false
      for (const entry of processes) {
        if (ours.has(entry.pid) || excluded.has(entry.pid)) continue
        if (ours.has(entry.parentPid) || namespaces.has(entry.pidNamespace)) {
          ours.set(entry.pid, entry)
          grew = true
        }
      }
    }
    return [...ours.values()]
  }

  return {
    /** Records the server's processes now; call it often while the server runs. */
    observe: (): ProcessEntry[] => {
      const ours = belongs(listProcesses())
      for (const entry of ours) seen.set(entry.pid, entry.startTime)
      return ours
    },
    /** The server's processes still running (zombies do not run anything). */
    running: (): ProcessEntry[] => belongs(listProcesses()).filter((entry) => entry.state !== 'Z'),
  }
}
