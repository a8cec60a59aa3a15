// Kill a real `vitest run` process group with SIGKILL once the target has been called k times.
import type { ChildProcess } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Project, ProcessResult } from './project.js'

export function callLines(project: Project, file = 'calls.log'): string[] {
  const path = join(project.dir, file)
  if (!existsSync(path)) return []
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
}

/** Starts `vitest run` (or, with `digline`, the bin) in its own process group and SIGKILLs the group after k calls in total. */
export function killAfterCalls(project: Project, k: number, env: NodeJS.ProcessEnv = {}, digline?: string[]): Promise<ProcessResult> {
  return killWhen(project, `${k} calls`, () => callLines(project).length >= k, env, digline)
}

/**
 * Starts `vitest run` (or, with `digline`, the bin) in its own process group and SIGKILLs the group
 * once `ready` holds, asked every `everyMs` (a run held at its kill point can be asked less often).
 */
export async function killWhen(
  project: Project,
  what: string,
  ready: () => boolean | Promise<boolean>,
  env: NodeJS.ProcessEnv = {},
  digline?: string[],
  everyMs = 2,
): Promise<ProcessResult> {
  const child = digline === undefined ? project.spawnVitest([], env) : project.spawnDigline(digline, env)
  const deadline = Date.now() + 60_000
  while (!(await ready())) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const result = await child.done
      throw new Error(`vitest ended before ${what} (${callLines(project).length} calls made):\n${result.stdout}\n${result.stderr}`)
    }
    await new Promise((r) => setTimeout(r, everyMs))
  }
  return killGroup(child)
}

/**
 * SIGKILLs a child's process group and waits until no process of it runs, not only its leader: a
 * worker Vitest forked can outlive the main process for a moment, and until it is gone its lease
 * reads as live (a zombie does not).
 */
export async function killGroup(child: ChildProcess & { done: Promise<ProcessResult> }): Promise<ProcessResult> {
  process.kill(-child.pid!, 'SIGKILL')
  const result = await child.done
  const deadline = Date.now() + 10_000
  while (groupRuns(child.pid!)) {
    if (Date.now() > deadline) throw new Error(`process group ${child.pid} still runs 10 s after SIGKILL`)
    await new Promise((r) => setTimeout(r, 5))
  }
  return result
}

function groupRuns(pgid: number): boolean {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    } catch {
      continue
    }
    // after the command name: state, ppid, pgrp
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(pgrp) === pgid && state !== 'Z') return true
  }
  return false
}

/**
 * A deterministic 100-case suite whose target takes a few ms, for kill tests. With `holdFile`, each
 * call, once logged, waits while that file exists in the project (a test removes it to let the run go
 * on); a hold file that holds a number n holds only the calls of cases n and later.
 */
export function killSuite(opts: {
  cases?: number
  samples?: number
  concurrency: number
  delayMs?: number
  extra?: string
  answer?: string
  name?: string
  holdFile?: string
}): string {
  return `import { evalSuite, scorers } from 'digline'
import { appendFileSync, readFileSync } from 'node:fs'
${
  opts.holdFile === undefined
    ? ''
    : `
function held(i) {
  try {
    return i >= Number(readFileSync(${JSON.stringify(opts.holdFile)}, 'utf8'))
  } catch {
    return false
  }
}
`
}
evalSuite({
  name: ${JSON.stringify(opts.name ?? 'killed')},
  cases: Array.from({ length: ${opts.cases ?? 100} }, (_, i) => ({ id: 'c' + String(i).padStart(3, '0'), input: i, expected: i % 7 === 0 ? -1 : i })),
  target: {
    config: { model: 'det-v1' },
    async ask(i, ctx) {
      appendFileSync('calls.log', ctx.caseId + ':' + ctx.sample + '\\n')
      ${opts.holdFile === undefined ? '' : `while (held(i)) await new Promise((r) => setTimeout(r, 20))`}
      await new Promise((r) => setTimeout(r, ${opts.delayMs ?? 8} + (i % 5)))
      return { output: ${opts.answer ?? 'i'}, model: process.env.TARGET_MODEL ?? 'det-v1-2026' }
    },
  },
  samples: ${opts.samples ?? 1},
  scorers: [scorers.exact()],
  concurrency: ${opts.concurrency},
  ${opts.extra ?? ''}
})
`
}
