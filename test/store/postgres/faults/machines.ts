// Two "machines" against one team store: each has a working directory, a HOME and a host name of its
// own. A machine's processes run in a UTS namespace of their own (`unshare --uts`) whose host name is
// the machine's, so the leases they write name that host, and a process of another machine can judge
// them only by their heartbeat, as across a network. Kill tests signal the whole process group.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { installRoot, makeProject, type ProcessResult, type Project } from '../../../helpers/project.js'
import { installedBin } from '../../../helpers/installed-package.js'

export interface Machine extends Project {
  host: string
  home: string
}

/** Fails with the reason when this machine cannot give a process a host name of its own. */
export function assertMachinesPossible(): void {
  try {
    const seen = execFileSync('unshare', ['--uts', 'sh', '-c', 'hostname digline-probe && hostname'], { encoding: 'utf8' }).trim()
    if (seen !== 'digline-probe') throw new Error(`the namespace's host name read back as ${seen}`)
  } catch (error) {
    throw new Error(
      `the two-machine tests run each "machine" under \`unshare --uts\` with its own host name, which failed here (${error instanceof Error ? error.message : String(error)}); run the tests as root (as .ci/run does) or in a container that allows new UTS namespaces`,
      { cause: error },
    )
  }
}

/** A project of its own, with its own HOME, whose vitest and digline processes run under host name `host`. */
export function machine(host: string, files: Record<string, string>): Machine {
  const project = makeProject(files)
  const home = mkdtempSync(join(installRoot(), `home-${host}-`))
  const root = installRoot()
  const start = (bin: string, args: string[], env: NodeJS.ProcessEnv = {}, detached = false) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|TEST$|NODE_ENV$|DIGLINE_)/.test(k)))
    const child = spawn('unshare', ['--uts', 'sh', '-c', 'hostname "$0" && exec "$@"', host, process.execPath, bin, ...args], {
      cwd: project.dir,
      env: { ...clean, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', HOME: home, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached,
    }) as ChildProcess & { done: Promise<ProcessResult> }
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (d) => (stdout += d))
    child.stderr!.on('data', (d) => (stderr += d))
    child.done = new Promise((resolve, reject) => {
      child.on('error', reject)
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
    })
    return child
  }
  const vitestBin = join(root, 'node_modules', 'vitest', 'vitest.mjs')
  const diglineBin = installedBin(root)
  return {
    ...project,
    host,
    home,
    vitest: (args = [], env) => start(vitestBin, ['run', ...args], env).done,
    digline: (args, env) => start(diglineBin, args, env).done,
    spawnVitest: (args = [], env) => start(vitestBin, ['run', ...args], env, true),
    spawnDigline: (args, env) => start(diglineBin, args, env, true),
  }
}

/** The process group a live process belongs to (field 5 of /proc/PID/stat), or undefined when it is gone. */
export function processGroupOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])
  } catch {
    return undefined
  }
}

export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex')
}
