/**
 * The seccomp filter of every box process (docs/architecture/devbox.md "Sandbox"), in the spirit of
 * Docker's default: interfaces app code never needs that widen the attack surface get EPERM.
 * Classic BPF, as `bwrap --seccomp FD` reads.
 */

/** Syscalls refused outright, by name: what no Node, npm, git or build tool calls. */
export const refusedSyscalls = [
  'acct',
  'add_key',
  'bpf',
  'clock_adjtime',
  'clock_settime',
  'create_module',
  'delete_module',
  'finit_module',
  'fsconfig',
  'fsmount',
  'fsopen',
  'fspick',
  'get_kernel_syms',
  'init_module',
  'io_uring_enter',
  'io_uring_register',
  'io_uring_setup',
  'ioperm',
  'iopl',
  'kcmp',
  'kexec_file_load',
  'kexec_load',
  'keyctl',
  'lookup_dcookie',
  'mount',
  'mount_setattr',
  'move_mount',
  'name_to_handle_at',
  'nfsservctl',
  'open_by_handle_at',
  'open_tree',
  'perf_event_open',
  'pivot_root',
  'process_vm_readv',
  'process_vm_writev',
  'ptrace',
  'query_module',
  'quotactl',
  'quotactl_fd',
  'reboot',
  'request_key',
  'setns',
  'settimeofday',
  'swapoff',
  'swapon',
  'sysfs',
  '_sysctl',
  'syslog',
  'umount2',
  'unshare',
  'uselib',
  'userfaultfd',
  'ustat',
  'vhangup',
] as const

type SyscallName = (typeof refusedSyscalls)[number] | 'clone' | 'clone3'

type Architecture = {
  /** AUDIT_ARCH_* of the filter's `arch` field. */
  auditArch: number
  numbers: Partial<Record<SyscallName, number>>
  /** x86_64's x32 ABI shares the arch value and sets this bit in the number. */
  x32Bit?: number
}

// Numbers from libseccomp's `scmp_sys_resolver -a ARCH NAME`; a name missing has no syscall there.
const architectures: Record<string, Architecture> = {
  x64: {
    auditArch: 0xc000003e,
    x32Bit: 0x40000000,
    numbers: {
      acct: 163,
      add_key: 248,
      bpf: 321,
      clock_adjtime: 305,
      clock_settime: 227,
      create_module: 174,
      delete_module: 176,
      finit_module: 313,
      fsconfig: 431,
      fsmount: 432,
      fsopen: 430,
      fspick: 433,
      get_kernel_syms: 177,
      init_module: 175,
      io_uring_enter: 426,
      io_uring_register: 427,
      io_uring_setup: 425,
      ioperm: 173,
      iopl: 172,
      kcmp: 312,
      kexec_file_load: 320,
      kexec_load: 246,
      keyctl: 250,
      lookup_dcookie: 212,
      mount: 165,
      mount_setattr: 442,
      move_mount: 429,
      name_to_handle_at: 303,
      nfsservctl: 180,
      open_by_handle_at: 304,
      open_tree: 428,
      perf_event_open: 298,
      pivot_root: 155,
      process_vm_readv: 310,
      process_vm_writev: 311,
      ptrace: 101,
      query_module: 178,
      quotactl: 179,
      quotactl_fd: 443,
      reboot: 169,
      request_key: 249,
      setns: 308,
      settimeofday: 164,
      swapoff: 168,
      swapon: 167,
      sysfs: 139,
      _sysctl: 156,
      syslog: 103,
      umount2: 166,
      unshare: 272,
      uselib: 134,
      userfaultfd: 323,
      ustat: 136,
      vhangup: 153,
      clone: 56,
      clone3: 435,
    },
  },
  arm64: {
    auditArch: 0xc00000b7,
    numbers: {
      acct: 89,
      add_key: 217,
      bpf: 280,
      clock_adjtime: 266,
      clock_settime: 112,
      delete_module: 106,
      finit_module: 273,
      fsconfig: 431,
      fsmount: 432,
      fsopen: 430,
      fspick: 433,
      init_module: 105,
      io_uring_enter: 426,
      io_uring_register: 427,
      io_uring_setup: 425,
      kcmp: 272,
      kexec_file_load: 294,
      kexec_load: 104,
      keyctl: 219,
      lookup_dcookie: 18,
      mount: 40,
      mount_setattr: 442,
      move_mount: 429,
      name_to_handle_at: 264,
      nfsservctl: 42,
      open_by_handle_at: 265,
      open_tree: 428,
      perf_event_open: 241,
      pivot_root: 41,
      process_vm_readv: 270,
      process_vm_writev: 271,
      ptrace: 117,
      quotactl: 60,
      quotactl_fd: 443,
      reboot: 142,
      request_key: 218,
      setns: 268,
      settimeofday: 170,
      swapoff: 225,
      swapon: 224,
      syslog: 116,
      umount2: 39,
      unshare: 97,
      userfaultfd: 282,
      vhangup: 58,
      clone: 220,
      clone3: 435,
    },
  },
}

/** Every CLONE_NEW* flag clone(2) takes: a box makes no namespaces of its own. */
const namespaceCloneFlags = 0x7e020000
const errnoEperm = 1
const errnoEnosys = 38

// Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
const loadWord = 0x20
const jumpIfEqual = 0x15
const jumpIfGreaterOrEqual = 0x35
const jumpIfAnyBit = 0x45
const returnValue = 0x06
const allow = 0x7fff0000
const killProcess = 0x80000000
const errnoReturn = (errno: number) => 0x00050000 | errno
// Offsets in struct seccomp_data: nr, arch, then args[] (the low 32 bits of args[0] first).
const offsetNumber = 0
const offsetArch = 4
const offsetFirstArgument = 16

type Label = 'allow' | 'refuse' | 'notImplemented'
type Target = number | Label
type Instruction = { code: number; value: number; jumpTrue?: Target; jumpFalse?: Target }

/** True when this machine's processor has a filter (x86-64 and arm64). */
export function seccompSupported(arch: string = process.arch): boolean {
  return architectures[arch] !== undefined
}

/**
 * The filter as bytes of `struct sock_filter[]` for `arch` (Node's `process.arch`). Another
 * architecture's calls (32-bit x86 through `int 0x80`, x32) are refused or kill the process:
 * their numbers mean other calls.
 */
export function buildSeccompFilter(arch: string = process.arch): Buffer {
  const architecture = architectures[arch]
  if (!architecture) throw new Error(`No seccomp filter for the ${arch} architecture`)
  const { numbers } = architecture
  const program: Instruction[] = [
    { code: loadWord, value: offsetArch },
    { code: jumpIfEqual, value: architecture.auditArch, jumpTrue: 1 },
    { code: returnValue, value: killProcess },
    { code: loadWord, value: offsetNumber },
  ]
  if (architecture.x32Bit !== undefined) {
    program.push({ code: jumpIfGreaterOrEqual, value: architecture.x32Bit, jumpTrue: 'refuse' })
  }
  for (const name of refusedSyscalls) {
    const number = numbers[name]
    if (number !== undefined) program.push({ code: jumpIfEqual, value: number, jumpTrue: 'refuse' })
  }
  // clone3 passes its flags in memory a filter cannot read: ENOSYS makes libc fall back to clone.
  if (numbers.clone3 !== undefined) {
    program.push({ code: jumpIfEqual, value: numbers.clone3, jumpTrue: 'notImplemented' })
  }
  if (numbers.clone !== undefined) {
    program.push(
      { code: jumpIfEqual, value: numbers.clone, jumpFalse: 'allow' },
      { code: loadWord, value: offsetFirstArgument },
      { code: jumpIfAnyBit, value: namespaceCloneFlags, jumpTrue: 'refuse' },
    )
  }
  const labels: Record<Label, number> = {
    allow: program.length,
    refuse: program.length + 1,
    notImplemented: program.length + 2,
  }
  program.push(
    { code: returnValue, value: allow },
    { code: returnValue, value: errnoReturn(errnoEperm) },
    { code: returnValue, value: errnoReturn(errnoEnosys) },
  )
  // A jump counts the instructions it skips: from the next instruction to its target.
  const offset = (index: number, target: Target | undefined) =>
    target === undefined ? 0 : typeof target === 'number' ? target : labels[target] - index - 1
  return encode(
    program.map((instruction, index) => ({
      code: instruction.code,
      value: instruction.value,
      jumpTrue: offset(index, instruction.jumpTrue),
      jumpFalse: offset(index, instruction.jumpFalse),
    })),
  )
}

function encode(
  program: { code: number; value: number; jumpTrue: number; jumpFalse: number }[],
): Buffer {
  if (program.length > 4096) throw new Error('A seccomp filter holds at most 4096 instructions')
  const bytes = Buffer.alloc(program.length * 8)
  program.forEach((instruction, index) => {
    if (instruction.jumpTrue > 255 || instruction.jumpFalse > 255 || instruction.jumpTrue < 0) {
      throw new Error('A seccomp jump is longer than 255 instructions')
    }
    bytes.writeUInt16LE(instruction.code, index * 8)
    bytes.writeUInt8(instruction.jumpTrue, index * 8 + 2)
    bytes.writeUInt8(instruction.jumpFalse, index * 8 + 3)
    bytes.writeUInt32LE(instruction.value >>> 0, index * 8 + 4)
  })
  return bytes
}
