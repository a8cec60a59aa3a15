// Whether a journal leg is still being written. A leg's lease names its writer by host, boot, pid and
// the process's start time, so a pid the kernel handed to another process since is not the writer.
import { readFileSync } from 'node:fs'
import { hostname } from 'node:os'
import type { Lease, LegLease } from './journal.js'

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

/** This boot of this host, or null where /proc does not say. */
export function bootId(): string | null {
  return readText('/proc/sys/kernel/random/boot_id')?.trim() || null
}

interface ProcStat {
  state: string
  startTime: number
}

/** State (field 3) and start time (field 22) of a process; the command name may hold spaces and parentheses. */
function procStat(pid: number): ProcStat | undefined {
  const stat = readText(`/proc/${pid}/stat`)
  if (stat === undefined) return undefined
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const startTime = Number(fields[19])
  if (fields[0] === undefined || !Number.isSafeInteger(startTime)) return undefined
  return { state: fields[0], startTime }
}

/** The start time of a process (clock ticks after boot), or null where /proc does not say. */
export function processStartTime(pid: number): number | null {
  return procStat(pid)?.startTime ?? null
}

/** The lease this process writes into a leg it opens. */
export function leaseOfThisProcess(): Lease {
  return { host: hostname(), boot: bootId(), pid: process.pid, start_time: processStartTime(process.pid) }
}

function signalsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Whether the process a lease names is alive and is that process: on this host, in this boot, with
 * this pid, and (where both are known) with the same start time. A zombie writes nothing: not live.
 * This process's own lease is never live to itself (it is not another writer).
 */
export function leaseHolds(lease: Lease): boolean {
  if (lease.host !== hostname()) return false
  const boot = bootId()
  if (lease.boot !== null && boot !== null && lease.boot !== boot) return false
  if (lease.pid === process.pid && (lease.start_time === null || lease.start_time === processStartTime(process.pid))) return false
  return processHolds(lease.pid, lease.start_time)
}

/**
 * Whether a process of this host with this pid is alive and is the one that started at `startTime`
 * (when known): a zombie, or a pid the kernel handed to another process since, is not.
 */
export function processHolds(pid: number, startTime: number | null): boolean {
  if (!signalsAlive(pid)) return false
  const stat = procStat(pid)
  if (stat === undefined) return true
  if (stat.state === 'Z') return false
  return startTime === null || startTime === stat.startTime
}

/** The first leg whose lease holds. */
export function liveLeaseOf(leases: readonly LegLease[]): LegLease | undefined {
  return leases.find((l) => l.live)
}

/** Words for a live writer: "process 123 on host h (leg 2, started 2026-…)". */
export function describeWriter(held: LegLease): string {
  return `process ${held.lease.pid} on host ${held.lease.host} (leg ${held.leg}, writing since ${held.since})`
}
