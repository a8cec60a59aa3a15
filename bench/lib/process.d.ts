/** What runNode saw of a launch's process tree (see process.js). */
export interface TreeMemory {
  mainPeakBytes: number
  workerPeakBytes: number
  treePeakBytes: number
  processes: number
  /** User + system CPU of the whole tree: the larger of the reaped count and the sampled one. */
  cpuMs: number
  mainCpuMs: number
  /** The kernel's count for the reaped tree; NaN when another run of the bench overlapped this one. */
  reapedCpuMs: number
}

export interface NodeRun {
  code: number | null
  signal: NodeJS.Signals | null
  wallMs: number
  memory: TreeMemory
  stdout: string
  stderr: string
  listenerWarnings: number
}

export function runNode(args: string[], options?: { cwd?: string; env?: Record<string, string>; timeoutMs?: number }): Promise<NodeRun>

/** Runs a bench child script that prints one JSON object as its last stdout line. */
export function runJsonChild(
  script: string,
  input: unknown,
  options?: { cwd?: string; nodeArgs?: string[]; timeoutMs?: number },
): Promise<Record<string, unknown> & { childMemory: TreeMemory; childWallMs: number }>
