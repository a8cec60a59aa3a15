// Temp user projects for end-to-end tests: a vitest.config.ts with the digline() plugin, suite
// files, and real `vitest run` / `digline` processes.
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { expect, inject } from 'vitest'
import { installedBin, installEnded } from './installed-package.js'

export interface ProcessResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface Project {
  dir: string
  write(path: string, text: string): void
  read(path: string): string
  /** `vitest run` in the project; resolves when the whole process exits. */
  vitest(args?: string[], env?: NodeJS.ProcessEnv): Promise<ProcessResult>
  /** The digline bin in the project. */
  digline(args: string[], env?: NodeJS.ProcessEnv): Promise<ProcessResult>
  /** Start a process in its own process group, for kill tests. */
  spawnVitest(args?: string[], env?: NodeJS.ProcessEnv): ChildProcess & { done: Promise<ProcessResult> }
  spawnDigline(args: string[], env?: NodeJS.ProcessEnv): ChildProcess & { done: Promise<ProcessResult> }
  /** Run documents under .digline/<tenant>/runs/<suite>/. */
  runFiles(tenant: string, suite: string): string[]
}

// The global setup installs the packed digline while the first files run. A file that imports this
// module waits here, at import, for the install to end: outside any test's or hook's timeout.
await installEnded(inject('installRoot'))

export function installRoot(): string {
  return inject('installRoot')
}

/** DIGLINE_TEST_SPAWN_LOG=FILE: one line per process a test file starts, to count them per file (ADR 0200). */
function logSpawn(bin: string, args: readonly string[]): void {
  const log = process.env.DIGLINE_TEST_SPAWN_LOG
  if (!log) return
  const file = relative(process.cwd(), expect.getState().testPath ?? '?')
  appendFileSync(log, `${file}\t${basename(dirname(bin)) === 'vitest' ? 'vitest' : 'digline'}\t${args.join(' ')}\n`)
}

export function defaultConfig(tenant = 'acme', extra = ''): string {
  return `import { defineConfig } from 'vitest/config'
import { digline } from 'digline/plugin'

export default defineConfig({
  plugins: [digline({ tenant: ${JSON.stringify(tenant)}${extra} })],
  test: { include: ['evals/**/*.eval.ts'] },
})
`
}

export function makeProject(files: Record<string, string> = {}): Project {
  const root = installRoot()
  mkdirSync(join(root, 'projects'), { recursive: true })
  const dir = mkdtempSync(join(root, 'projects', 'p-'))
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  write('package.json', JSON.stringify({ name: 'user-project', private: true, type: 'module' }))
  if (!('vitest.config.ts' in files)) write('vitest.config.ts', defaultConfig())
  for (const [path, text] of Object.entries(files)) write(path, text)
  const baseEnv = (env: NodeJS.ProcessEnv = {}) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|TEST$|NODE_ENV$|DIGLINE_)/.test(k)))
    return { ...clean, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', ...env }
  }
  const start = (bin: string, args: string[], env?: NodeJS.ProcessEnv, detached = false) => {
    logSpawn(bin, args)
    const child = spawn(process.execPath, [bin, ...args], { cwd: dir, env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached }) as ChildProcess & {
      done: Promise<ProcessResult>
    }
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
    dir,
    write,
    read: (path) => readFileSync(join(dir, path), 'utf8'),
    vitest: (args = [], env) => start(vitestBin, ['run', ...args], env).done,
    digline: (args, env) => start(diglineBin, args, env).done,
    spawnVitest: (args = [], env) => start(vitestBin, ['run', ...args], env, true),
    spawnDigline: (args, env) => start(diglineBin, args, env, true),
    runFiles(tenant, suite) {
      try {
        return readdirSync(join(dir, '.digline', tenant, 'runs', suite))
          .filter((f) => f.endsWith('.json') && !f.startsWith('.'))
          .sort()
      } catch {
        return []
      }
    },
  }
}

/**
 * A new project holding a copy of every file of `project` (its store, journals and calls.log included):
 * one killed run can be the starting point of several tests, each changing its own copy.
 */
export function copyProject(project: Project): Project {
  const copy = makeProject()
  cpSync(project.dir, copy.dir, { recursive: true })
  return copy
}

/** A suite file whose target is a deterministic function that counts its calls in a file. */
export function countingSuite(opts: {
  name: string
  cases: number
  samples?: number
  minAgreement?: number
  concurrency?: number
  /** JS expression over (i, sample) that decides the answer; default: the right answer. */
  answer?: string
  thresholds?: string
  /** Milliseconds each call waits, or a JS expression for them (evaluated at each call, e.g. over process.env). */
  delayMs?: number | string
  extra?: string
}): string {
  return `import { evalSuite, scorers } from 'digline'
import { appendFileSync } from 'node:fs'

const cases = Array.from({ length: ${opts.cases} }, (_, i) => ({ id: 'c' + String(i).padStart(3, '0'), input: i, expected: 'ok-' + i }))

evalSuite({
  name: ${JSON.stringify(opts.name)},
  cases,
  target: {
    config: { model: 'counter-v1' },
    async ask(i, ctx) {
      appendFileSync(process.env.CALLS_FILE ?? 'calls.log', ctx.caseId + ':' + ctx.sample + '\\n')
      ${opts.delayMs ? `await new Promise((r) => setTimeout(r, ${opts.delayMs}))` : ''}
      const sample = ctx.sample
      return { output: ${opts.answer ?? "'ok-' + i"}, model: 'counter-v1-2026' }
    },
  },
  samples: ${opts.samples ?? 1},
  minAgreement: ${opts.minAgreement ?? 1},
  scorers: [scorers.exact()],
  concurrency: ${opts.concurrency ?? 4},
  ${opts.thresholds ? `thresholds: ${opts.thresholds},` : ''}
  ${opts.extra ?? ''}
})
`
}

/** The pending-journal directory of a suite of tenant acme in a project. */
export function pendingDir(project: Project, suite = 'killed'): string {
  return join(project.dir, '.digline', 'acme', 'runs', suite, '.pending')
}

/** Each journal leg of a suite, by file name, as the sha256 of its bytes: to prove a refusal changed none. */
export function journalBytes(project: Project, suite = 'killed'): Record<string, string> {
  const dir = pendingDir(project, suite)
  return Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [
        f,
        createHash('sha256')
          .update(readFileSync(join(dir, f)))
          .digest('hex'),
      ]),
  )
}
