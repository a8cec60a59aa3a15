// Running a process the way a user does, timing its whole life, and watching its memory: every
// process of its tree is found under /proc, its VmHWM (the kernel's own peak RSS of that process)
// and its CPU time are read until it exits, and the sum of VmRSS over the tree is sampled for the
// tree's peak. Its CPU time is the kernel's count for the reaped tree (see reapedChildrenCpuMs).
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

const HAS_PROC = (() => {
  try {
    readFileSync('/proc/self/status', 'utf8')
    return true
  } catch {
    return false
  }
})()

// USER_HZ: 100 on every Linux a Node 20 runs on.
const CLOCK_TICKS = 100

function statusKiB(text, field) {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)
  return m === null ? undefined : Number(m[1])
}

function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined
  }
}

/** Every live descendant of root (root included). */
function treeOf(root) {
  const children = new Map()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const pid = Number(name)
    const ppid = parentOf(pid)
    if (ppid === undefined) continue
    if (!children.has(ppid)) children.set(ppid, [])
    children.get(ppid).push(pid)
  }
  const out = [root]
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]) ?? []))
  return out
}

class TreeSampler {
  constructor(root, intervalMs = 50, rescanEvery = 5) {
    this.root = root
    this.pids = new Set([root])
    /** pid -> { role, hwmKiB, cmd } */
    this.seen = new Map()
    this.treePeakKiB = 0
    this.ticks = 0
    this.timer = setInterval(() => this.sample(rescanEvery), intervalMs)
    this.timer.unref()
    this.sample(1)
  }

  sample(rescanEvery) {
    if (!HAS_PROC) return
    if (this.ticks++ % rescanEvery === 0) {
      try {
        for (const pid of treeOf(this.root)) this.pids.add(pid)
      } catch {
        // /proc moved under us; the next tick rescans
      }
    }
    let sum = 0
    for (const pid of this.pids) {
      let text
      try {
        text = readFileSync(`/proc/${pid}/status`, 'utf8')
      } catch {
        this.pids.delete(pid)
        continue
      }
      let cpuTicks
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        cpuTicks = Number(fields[11]) + Number(fields[12])
      } catch {}
      const rss = statusKiB(text, 'VmRSS') ?? 0
      const hwm = statusKiB(text, 'VmHWM') ?? rss
      sum += rss
      let entry = this.seen.get(pid)
      if (entry === undefined) {
        let cmd = ''
        try {
          cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
        } catch {}
        entry = { role: pid === this.root ? 'main' : 'worker', hwmKiB: 0, cmd }
        this.seen.set(pid, entry)
      }
      entry.hwmKiB = Math.max(entry.hwmKiB, hwm)
      if (cpuTicks !== undefined) entry.cpuTicks = Math.max(entry.cpuTicks ?? 0, cpuTicks)
    }
    this.treePeakKiB = Math.max(this.treePeakKiB, sum)
  }

  stop() {
    clearInterval(this.timer)
    const workers = [...this.seen.values()].filter((e) => e.role === 'worker' && e.cmd.includes('node'))
    return {
      mainPeakBytes: (this.seen.get(this.root)?.hwmKiB ?? NaN) * 1024,
      workerPeakBytes: workers.length === 0 ? NaN : Math.max(...workers.map((w) => w.hwmKiB)) * 1024,
      treePeakBytes: this.treePeakKiB * 1024,
      processes: this.seen.size,
      /** user + system CPU of every process of the tree, as last sampled (up to one interval short); runNode puts the reaped count here. */
      cpuMs: [...this.seen.values()].reduce((sum, e) => sum + (e.cpuTicks ?? 0), 0) * (1000 / CLOCK_TICKS),
      /** the same for the root process alone (Vitest's main process) */
      mainCpuMs: (this.seen.get(this.root)?.cpuTicks ?? NaN) * (1000 / CLOCK_TICKS),
    }
  }
}

/**
 * User + system CPU (ms) of this process's children that have exited and been reaped, each with
 * the children it reaped itself: the kernel's exact count for a launch's whole tree, Vitest's
 * workers included. The sampler's count falls short by what each process used after its last
 * sample, and misses a process that starts and ends between two scans of the tree (a plain 10-test
 * launch's worker, about 150 ms of its 470). NaN without /proc.
 */
function reapedChildrenCpuMs() {
  if (!HAS_PROC) return NaN
  const stat = readFileSync('/proc/self/stat', 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[13]) + Number(fields[14])) * (1000 / CLOCK_TICKS)
}

// The reaped count is a run's own only if no other runNode overlapped it; the bench's other children
// (the chat servers) are awaited when they stop, so none ends during a later run.
let runsStarted = 0
let runsAlive = 0

/**
 * Runs `node <args>` in cwd; resolves with its exit code, wall time (spawn to exit, in ms),
 * memory and the tail of its output. `scanEveryTick` looks for new processes of the tree at every
 * sample instead of every fifth (250 ms): a worker that lives less than that is then still found.
 */
export function runNode(args, { cwd, env = {}, timeoutMs = 30 * 60_000, scanEveryTick = false } = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|TEST$|NODE_ENV$|DIGLINE_|NODE_OPTIONS$)/.test(k)))
  return new Promise((resolve, reject) => {
    const alone = runsAlive === 0
    const startedAs = ++runsStarted
    runsAlive++
    const reapedBefore = reapedChildrenCpuMs()
    const start = process.hrtime.bigint()
    const child = spawn(process.execPath, args, { cwd, env: { ...clean, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    const sampler = new TreeSampler(child.pid, 50, scanEveryTick ? 1 : 5)
    let stdout = ''
    let stderr = ''
    const keep = (text, more) => (text + more).slice(-20_000)
    child.stdout.on('data', (d) => (stdout = keep(stdout, d)))
    let listenerWarnings = 0
    child.stderr.on('data', (d) => {
      listenerWarnings += String(d).split('MaxListenersExceededWarning').length - 1
      stderr = keep(stderr, d)
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', reject)
    child.on('exit', () => sampler.sample(1))
    child.on('close', (code, signal) => {
      const wallMs = Number(process.hrtime.bigint() - start) / 1e6
      clearTimeout(timer)
      runsAlive--
      const reapedCpuMs = alone && runsStarted === startedAs ? reapedChildrenCpuMs() - reapedBefore : NaN
      const memory = sampler.stop()
      // Both counts fall short, never over: the reaped one of a worker its parent left unreaped.
      if (!Number.isNaN(reapedCpuMs)) memory.cpuMs = Math.max(memory.cpuMs, reapedCpuMs)
      resolve({ code, signal, wallMs, memory: { ...memory, reapedCpuMs }, stdout, stderr, listenerWarnings })
    })
  })
}

/** Runs a bench child script that prints one JSON object as its last stdout line. */
export async function runJsonChild(script, input, { cwd, nodeArgs = [], timeoutMs } = {}) {
  const result = await runNode([...nodeArgs, script, JSON.stringify(input)], { cwd, timeoutMs })
  if (result.code !== 0) throw new Error(`${script} exited ${result.code ?? result.signal}:\n${result.stderr.slice(-4000)}\n${result.stdout.slice(-2000)}`)
  const last = result.stdout.trim().split('\n').pop()
  return { ...JSON.parse(last), childMemory: result.memory, childWallMs: result.wallMs }
}
