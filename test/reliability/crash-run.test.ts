// Crash points of a run and of a resume (SPEC §6, §9): at every mutating operation of a clean pass,
// the process crashes, or the power fails (every unsynced byte and directory entry lost, or a random
// prefix of them kept, per the ALICE model in test/helpers/durability-model.ts). Then the user's next
// command recovers (`digline run --resume`, or `vitest run`): the document is byte-identical to the
// uncrashed run's, no case whose record was fsynced is lost or paid for twice, nothing else changed.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FaultFs } from '../helpers/fault-fs.js'
import { mountTmpfs, type Tmpfs } from '../helpers/tmpfs.js'
import { ALL_KINDS, describeOps, durableCases, exercisePoints, summarize, type PointSummary } from './support/crash-driver.js'
import { figure } from './support/figures.js'
import { copyWorld, dropWorld, expectedCalls, launch, makeWorld, recoverRun, runKey, settledTree, type Launched, type SuiteShape, type World } from './support/run-scenario.js'
import type { TreeEntry } from '../store/tree-snapshot.js'

const SHAPE: SuiteShape = { cases: 4, erroring: ['c3'] }
let disk: Tmpfs

beforeAll(() => {
  disk = mountTmpfs('64m')
})
afterAll(() => disk.unmount())

/** The uncrashed outcome of a fresh run from `start`, and the mutating operations it took. */
async function cleanPass(start: World, resumeKey?: string): Promise<{ reference: TreeEntry[]; ops: string[]; launched: Launched }> {
  const world = copyWorld(start, disk.dir)
  const fs = new FaultFs()
  const launched = await launch(world, fs, { shape: SHAPE, ...(resumeKey === undefined ? {} : { resumeKey }) })
  expect(launched.error).toBeUndefined()
  const ops = describeOps(fs, world)
  const reference = settledTree(world).tree
  dropWorld(world)
  return { reference, ops, launched }
}

/** Checks the recovery of one point: exactly the unjournaled calls, and a launch that succeeded. */
async function recoverAndCheck(world: World, crashed: Launched, problems: string[]): Promise<string> {
  const held = await durableCases(world, SHAPE)
  const lost = crashed.acknowledged.filter((id) => !held.has(id))
  if (lost.length > 0) problems.push(`fsynced case(s) ${lost.join(', ')} lost`)
  const recovery = await recoverRun(world, SHAPE)
  if (recovery.launched !== undefined) {
    if (recovery.launched.error !== undefined) problems.push(`recovery (${recovery.path}) failed: ${String(recovery.launched.error)}`)
    const expected = expectedCalls(recovery.reused, SHAPE)
    if (recovery.launched.calls.join(' ') !== expected.join(' ')) {
      problems.push(`recovery (${recovery.path}) called ${recovery.launched.calls.join(' ')}, expected ${expected.join(' ')}`)
    }
  }
  return recovery.path
}

function report(what: string, summary: PointSummary): void {
  figure('crash points', summary.crashPoints, `${what}: a crash at every mutating operation, then recovered`)
  figure('power-loss points', summary.powerLossPoints, `${what}: power lost at every mutating operation (unsynced data and entries lost, or torn)`)
  figure('cases lost', summary.problems.filter((m) => m.includes(' lost')).length, `${what}: points that lost a case whose record was fsynced`)
  figure('documents differing', summary.problems.length, `${what}: points whose recovered store differs from the uncrashed one`)
  figure('manual recoveries', summary.manual.length, `${what}: points a resume refused until the named next step (remove the headerless leg) was taken`)
  figure('stray temp files', summary.withTemps.length, `${what}: points that left a .tmp file of the atomic writer behind`)
  for (const p of [...summary.manual, ...summary.withTemps])
    console.log(`[reliability]   ${what} k=${p.k} ${p.kind}: ${p.op} → ${p.recovery}${p.tempFiles.length > 0 ? `, left ${p.tempFiles.join(', ')}` : ''}`)
}

describe('crash points of a run and a resume', () => {
  let fresh: World
  let resumable: World
  let resumedKey: string

  beforeAll(async () => {
    fresh = makeWorld(disk.dir)
    // a store that holds a journal of two acknowledged cases, as a kill after the second would leave it
    resumable = copyWorld(fresh, disk.dir)
    const fs = new FaultFs()
    let stopAt: number | undefined
    const probe = copyWorld(fresh, disk.dir)
    await launch(probe, fs, { shape: SHAPE, onAck: (acked) => (stopAt ??= acked.length === 2 ? fs.mutations.length : undefined) })
    dropWorld(probe)
    const crash = new FaultFs({ fault: { kind: 'crash', at: stopAt! } })
    await launch(resumable, crash, { shape: SHAPE })
    await crash.settle()
    resumedKey = runKey(SHAPE)
  })

  test('a run: every crash and power-loss point recovers to the uncrashed document', async () => {
    const { reference, ops } = await cleanPass(fresh)
    expect(ops.length).toBeGreaterThan(20)
    const points = await exercisePoints<Launched>({
      parent: disk.dir,
      start: fresh,
      ops,
      kinds: ALL_KINDS,
      operate: (world, fs) => launch(world, fs, { shape: SHAPE }),
      recover: recoverAndCheck,
      reference,
    })
    const summary = summarize(points)
    report(`run (${ops.length} mutating operations)`, summary)
    expect(summary.problems).toEqual([])
  })

  test('a resume: every crash and power-loss point recovers to the uncrashed document', async () => {
    expect((await durableCases(resumable, SHAPE)).size).toBe(2)
    const { reference, ops, launched } = await cleanPass(resumable, resumedKey)
    expect(launched.calls).toEqual(expectedCalls(new Set(['c0', 'c1']), SHAPE))
    expect(reference).toEqual((await cleanPass(fresh)).reference)
    const points = await exercisePoints<Launched>({
      parent: disk.dir,
      start: resumable,
      ops,
      kinds: ALL_KINDS,
      operate: (world, fs) => launch(world, fs, { shape: SHAPE, resumeKey: resumedKey }),
      recover: recoverAndCheck,
      reference,
    })
    const summary = summarize(points)
    report(`resume (${ops.length} mutating operations)`, summary)
    expect(summary.problems).toEqual([])
  })
})
