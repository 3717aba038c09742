import type { EgressProxy } from '../../../egress/egress-proxy.ts'
import type { CgroupSupport } from './box-cgroup.ts'
import type { Toolchain } from './box-root.ts'
import type { BoxUids } from './box-uids.ts'

/** The tools a full sandbox is built from, found once at start. */
export type SandboxTools = {
  bubblewrapPath?: string
  /** `nsenter` and `setpriv`, usable only by root. */
  nsenterPath?: string
  setprivPath?: string
  cgroups?: CgroupSupport
  egress?: EgressProxy
  /** Holds the sockets of every box and the generated /etc files shown inside boxes. */
  runDirectory: string
  /** The first of the boxes' uids (the staged /etc's user); each box has its own (`boxUids`). */
  boxUser?: { uid: number; gid: number }
  boxUids?: BoxUids
  /** The compiled seccomp filter (`bwrap --seccomp`), when this processor has one. */
  seccompPath?: string
  /** The system part of every box's root: /usr, /etc, /tmp, the toolchain (box-root.ts). */
  rootArguments: string[]
  toolchain: Toolchain
  /** True when bubblewrap runs unprivileged (its own user namespace, which it then closes). */
  unprivileged: boolean
}
