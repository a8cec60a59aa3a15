// A small deterministic suite run in-process the way the plugin runs it (notePendingJournals or
// findPending, prepareRun, measureRun), over a store on any FsLayer, in a "world": a temp directory
// holding the project, its store, and an `outside` directory with a sentinel no operation may touch.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { findPending, notePendingJournals } from '../../../src/host/project/pending-journals.js'
import { prepareRun, type RunContext } from '../../../src/host/launch/prepare-run.js'
import { measureRun, type Measured } from '../../../src/host/launch/measure-run.js'
import { exact } from '../../../src/scorers/exact.js'
import { FileResultStore } from '../../../src/store/file/store.js'
import type { FsLayer } from '../../../src/store/file/fs-layer.js'
import { keyFor } from '../../../src/suite/keys.js'
import { resolveSuite, suiteIdentity } from '../../../src/suite/resolve-suite.js'
import type { ResolvedSuite } from '../../../src/suite/types.js'
import { snapshotTree, tempFilesIn, type TreeEntry } from '../../store/tree-snapshot.js'

export const TENANT = 'acme'
export const SUITE = 'crashy'
export const CREATED_AT = '2026-11-29T22:39:56.123456Z'
export const SAMPLES = 2

export interface World {
  dir: string
  project: string
  root: string
  outside: string
}

export function makeWorld(parent: string): World {
  const dir = mkdtempSync(join(parent, 'world-'))
  const world = { dir, project: join(dir, 'project'), root: join(dir, 'project', '.digline'), outside: join(dir, 'outside') }
  mkdirSync(world.project)
  mkdirSync(world.outside)
  writeFileSync(join(world.outside, 'sentinel.txt'), 'outside the store; never written\n')
  return world
}

export function copyWorld(from: World, parent: string): World {
  const dir = mkdtempSync(join(parent, 'world-'))
  cpSync(from.dir, dir, { recursive: true, verbatimSymlinks: true })
  return { dir, project: join(dir, 'project'), root: join(dir, 'project', '.digline'), outside: join(dir, 'outside') }
}

export function dropWorld(world: World): void {
  rmSync(world.dir, { recursive: true, force: true })
}

export interface SuiteShape {
  cases?: number
  /** Case ids whose target throws (the case errors, and a resume calls it again). */
  erroring?: readonly string[]
}

/** c0…c{n-1}: c1 fails, the `erroring` ones error, the rest pass; two samples each, one at a time. */
export function crashSuite(calls: string[], shape: SuiteShape = {}): ResolvedSuite {
  const erroring = new Set(shape.erroring ?? [])
  return resolveSuite({
    name: SUITE,
    cases: Array.from({ length: shape.cases ?? 4 }, (_, i) => ({ id: `c${i}`, input: i, expected: i === 1 ? -1 : i })),
    target: {
      config: { model: 'det-v1' },
      ask(input: unknown, ctx) {
        calls.push(`${ctx.caseId}:${ctx.sample}`)
        if (erroring.has(ctx.caseId)) throw new Error(`the target is down for ${ctx.caseId}`)
        return { output: input, model: 'det-v1-2026' }
      },
    },
    samples: SAMPLES,
    scorers: [exact()],
    concurrency: 1,
  })
}

export function runKey(shape: SuiteShape = {}): string {
  return keyFor(CREATED_AT, suiteIdentity(crashSuite([], shape)).configHash)
}

export function runFile(world: World, shape: SuiteShape = {}): string {
  return join(world.root, TENANT, 'runs', SUITE, `${runKey(shape)}.json`)
}

export interface Launched {
  calls: string[]
  /** Cases whose journal record was durable when the driver moved on (the onCase hook ran). */
  acknowledged: string[]
  measured?: Measured
  error?: unknown
}

export function contextOf(world: World): RunContext {
  return { tenant: TENANT, environment: 'local', storeRoot: world.root, projectRoot: world.project, env: { DIGLINE_CREATED_AT: CREATED_AT } }
}

/** One launch as the plugin makes it: a fresh run, or with resumeKey the resume of that journal. */
export interface LaunchOptions {
  resumeKey?: string
  shape?: SuiteShape
  /** Runs after each acknowledged case. */
  onAck?: (acknowledged: readonly string[]) => void
}

export async function launch(world: World, fs: FsLayer | undefined, options: LaunchOptions = {}): Promise<Launched> {
  const out: Launched = { calls: [], acknowledged: [] }
  const store = new FileResultStore(fs === undefined ? { root: world.root } : { root: world.root, fs })
  const suite = crashSuite(out.calls, options.shape)
  const ctx = contextOf(world)
  try {
    let resume
    if (options.resumeKey !== undefined) resume = { pending: await findPending(store, TENANT, SUITE, options.resumeKey), keepErrors: false }
    else await notePendingJournals(store, TENANT, SUITE, () => undefined)
    const prepared = await prepareRun(suite, ctx, undefined, resume)
    out.measured = await measureRun(prepared, {
      store,
      onCase: [
        (p) => {
          out.acknowledged.push(p.result.case_id)
          options.onAck?.(out.acknowledged)
        },
      ],
    })
  } catch (error) {
    out.error = error
  }
  return out
}

export type RecoveryPath = 'resume' | 'fresh' | 'drop-finished' | 'nothing' | 'manual-then-fresh'

export interface Recovery {
  path: RecoveryPath
  /** Judged (not errored) cases the journal held before recovering: a resume must not call them. */
  reused: Set<string>
  launched: Launched | undefined
}

/**
 * What the user does next: `digline run --resume` when a journal is pending, else `vitest run` (whose
 * first step removes the legs of a run already written). A journal refused by name is handled the
 * way its refusal's `next` says (remove its legs), then the suite is run again.
 */
export async function recoverRun(world: World, shape: SuiteShape = {}): Promise<Recovery> {
  const store = new FileResultStore({ root: world.root })
  const pending = (await store.pending(TENANT, SUITE)).filter((p) => !p.finished)
  const open = pending.at(-1)
  if (open !== undefined && open.refusal === undefined) {
    const reused = new Set([...open.done].filter(([, r]) => r.verdict !== 'error').map(([id]) => id))
    return { path: 'resume', reused, launched: await launch(world, undefined, { resumeKey: open.key, shape }) }
  }
  if (open !== undefined) {
    for (const leg of open.legs) unlinkSync(store.paths.journalLegFile(TENANT, SUITE, open.key, leg))
    return { path: 'manual-then-fresh', reused: new Set(), launched: await launch(world, undefined, { shape }) }
  }
  if (existsSync(runFile(world, shape))) {
    const finished = (await store.pending(TENANT, SUITE)).length > 0
    await notePendingJournals(store, TENANT, SUITE, () => undefined)
    return { path: finished ? 'drop-finished' : 'nothing', reused: new Set(), launched: undefined }
  }
  return { path: 'fresh', reused: new Set(), launched: await launch(world, undefined, { shape }) }
}

/** The calls a launch must make when `reused` cases are not called again (an erroring case stops at its first sample). */
export function expectedCalls(reused: ReadonlySet<string>, shape: SuiteShape = {}): string[] {
  const out: string[] = []
  for (let i = 0; i < (shape.cases ?? 4); i++) {
    const id = `c${i}`
    if (reused.has(id)) continue
    const samples = shape.erroring?.includes(id) === true ? 1 : SAMPLES
    for (let s = 0; s < samples; s++) out.push(`${id}:${s}`)
  }
  return out
}

/** The world's tree without the atomic writer's temp files, which a crash may leave (see docs/reliability.md). */
export function settledTree(world: World): { tree: TreeEntry[]; temps: string[] } {
  const all = snapshotTree(world.dir)
  const temps = tempFilesIn(all)
  return { tree: all.filter((e) => !temps.includes(e.path)), temps }
}

export function bytesOf(path: string): Buffer | undefined {
  return existsSync(path) ? readFileSync(path) : undefined
}
