// Crash points: an operation is run once cleanly through FaultFs to count its mutating operations,
// then once per (operation index k, kind): crashed or power-failed at k, recovered, and compared with
// the clean outcome. Problems are collected, not thrown, so one report names every bad point.
import { readFileSync } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import { FileResultStore } from '../../../src/store/file/store.js'
import type { PowerLossMode, PowerLossReport } from '../../helpers/durability-model.js'
import { FaultFs, type Fault } from '../../helpers/fault-fs.js'
import type { TreeEntry } from '../../store/tree-snapshot.js'
import { LONG } from './figures.js'
import { copyWorld, dropWorld, runFile, settledTree, SUITE, TENANT, type SuiteShape, type World } from './run-scenario.js'

export type PointKind = 'crash' | PowerLossMode

/** A crash, a power loss that loses everything unsynced, and torn ones (one seed; eight in the long mode). */
export const ALL_KINDS: readonly PointKind[] = ['crash', 'lose-all', ...Array.from({ length: LONG ? 8 : 1 }, () => 'torn' as const)]

export function faultAt(kind: PointKind, at: number, round = 0): Fault {
  return kind === 'crash' ? { kind: 'crash', at } : { kind: 'power-loss', at, mode: kind, seed: 7919 * (at + 1) + 104729 * round }
}

export interface Point {
  k: number
  kind: PointKind
  op: string
  problems: string[]
  tempFiles: string[]
  recovery: string
  powerLoss: PowerLossReport | undefined
}

export interface PointSummary {
  points: Point[]
  crashPoints: number
  powerLossPoints: number
  problems: string[]
  manual: Point[]
  withTemps: Point[]
}

export function summarize(points: Point[]): PointSummary {
  return {
    points,
    crashPoints: points.filter((p) => p.kind === 'crash').length,
    powerLossPoints: points.filter((p) => p.kind !== 'crash').length,
    problems: points.flatMap((p) => p.problems.map((m) => `k=${p.k} (${p.op}) ${p.kind}: ${m}`)),
    manual: points.filter((p) => p.recovery.startsWith('manual')),
    withTemps: points.filter((p) => p.tempFiles.length > 0),
  }
}

export function treeDifference(actual: readonly TreeEntry[], expected: readonly TreeEntry[]): string | undefined {
  if (isDeepStrictEqual(actual, expected)) return undefined
  const show = (e: TreeEntry) => JSON.stringify(e)
  const a = new Set(actual.map(show))
  const b = new Set(expected.map(show))
  const extra = [...a].filter((x) => !b.has(x))
  const missing = [...b].filter((x) => !a.has(x))
  return `tree differs from the uncrashed outcome: extra ${extra.join(', ') || 'none'}; missing ${missing.join(', ') || 'none'}`
}

/** The case ids a store holds durably for the run: in its document, or else in its pending journal. */
export async function durableCases(world: World, shape: SuiteShape = {}): Promise<Set<string>> {
  const held = new Set<string>()
  try {
    const doc = JSON.parse(readFileSync(runFile(world, shape), 'utf8')) as { results: { case_id: string }[] }
    for (const r of doc.results) held.add(r.case_id)
  } catch {
    // no readable document: the journal must hold them
  }
  for (const p of await new FileResultStore({ root: world.root }).pending(TENANT, SUITE)) for (const id of p.done.keys()) held.add(id)
  return held
}

export interface PointPlan<R> {
  parent: string
  start: World
  /** Mutating operations of the clean pass. */
  ops: readonly string[]
  kinds: readonly PointKind[]
  /** The operation under test, over the FaultFs. */
  operate(world: World, fs: FaultFs): Promise<R>
  /** After the crash (and the power loss), before recovery: what must already hold. */
  afterCrash?(world: World, result: R, problems: string[]): Promise<void>
  /** Recovers and returns how, adding problems for whatever went wrong. */
  recover(world: World, result: R, problems: string[]): Promise<string>
  reference: readonly TreeEntry[]
  /** Whether to compare the recovered tree with `reference` (default), or leave it to `recover`. */
  compare?: boolean
}

export async function exercisePoints<R>(plan: PointPlan<R>): Promise<Point[]> {
  const points: Point[] = []
  for (let k = 0; k < plan.ops.length; k++) {
    for (const [round, kind] of plan.kinds.entries()) {
      const world = copyWorld(plan.start, plan.parent)
      const fs = new FaultFs({ fault: faultAt(kind, k, round), scope: world.dir })
      const problems: string[] = []
      let recovery = 'not reached'
      let powerLoss: PowerLossReport | undefined
      let tempFiles: string[] = []
      try {
        const result = await plan.operate(world, fs)
        powerLoss = await fs.settle()
        if (!fs.fired) problems.push('the fault never fired: the operation took another path than the clean pass')
        await plan.afterCrash?.(world, result, problems)
        recovery = await plan.recover(world, result, problems)
        const settled = settledTree(world)
        tempFiles = settled.temps
        const diff = plan.compare === false ? undefined : treeDifference(settled.tree, plan.reference)
        if (diff !== undefined) problems.push(diff)
      } catch (error) {
        problems.push(`threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`)
      } finally {
        await fs.settle().catch(() => undefined)
        dropWorld(world)
      }
      points.push({ k, kind, op: plan.ops[k]!, problems, tempFiles, recovery, powerLoss })
    }
  }
  return points
}

/** Describes a mutating operation of a clean pass relative to the world, for reports. */
export function describeOps(fs: FaultFs, world: World): string[] {
  return fs.mutations.map((e) => `${e.op} ${e.path.replace(world.dir, '')}${e.to === undefined ? '' : ` → ${e.to.replace(world.dir, '')}`}`)
}
