// I/O errors at every mutating operation (SPEC §9): ENOSPC, EIO and EACCES injected by FaultFs into a
// run and into a promotion. Each stops the operation with a named error and never reports success
// (but for a fault after a promotion's commit point, where success is the truth), leaves no temp file, and the state it leaves recovers (resume, or the promote repeated) to the
// outcome of an operation that never failed. A partial journal record is cut back, or read as a torn
// tail, and is never fused with the next record.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FAILURES, REFUSALS } from '../../src/errors/catalogue.js'
import { isDiglineError } from '../../src/errors/base.js'
import { StoreWriteError } from '../../src/store/errors.js'
import { promoteRun } from '../../src/host/lifecycle/promote.js'
import { FileResultStore } from '../../src/store/file/store.js'
import type { FsLayer } from '../../src/store/file/fs-layer.js'
import { FaultFs, type Fault, type FaultOp } from '../helpers/fault-fs.js'
import { createdAtSeconds, DEFAULT_CONFIG_HASH, keyOf, makeRun } from '../helpers/make-run.js'
import { mountTmpfs, type Tmpfs } from '../helpers/tmpfs.js'
import { tempFilesIn, snapshotTree } from '../store/tree-snapshot.js'
import { treeDifference } from './support/crash-driver.js'
import { figure } from './support/figures.js'
import { copyWorld, dropWorld, expectedCalls, launch, makeWorld, recoverRun, runKey, settledTree, SUITE, TENANT, type SuiteShape, type World } from './support/run-scenario.js'

const SHAPE: SuiteShape = { cases: 4, erroring: ['c3'] }
const CODES = ['ENOSPC', 'EIO', 'EACCES'] as const
const FULL_DISK = (op: FaultOp) => op === 'write' || op === 'mkdir'

let disk: Tmpfs
let fresh: World
beforeAll(() => {
  disk = mountTmpfs('64m')
  fresh = makeWorld(disk.dir)
})
afterAll(() => disk.unmount())

function named(error: unknown): string | undefined {
  if (isDiglineError(error)) return error.name
  const e = error as { digline?: unknown; name?: unknown } | undefined
  return e?.digline === true && typeof e.name === 'string' && (e.name in REFUSALS || e.name in FAILURES) ? e.name : undefined
}

async function cleanRun(): Promise<{ ops: FaultOp[]; reference: ReturnType<typeof settledTree>['tree'] }> {
  const world = copyWorld(fresh, disk.dir)
  const fs = new FaultFs()
  expect((await launch(world, fs, { shape: SHAPE })).error).toBeUndefined()
  const out = { ops: fs.mutations.map((e) => e.op), reference: settledTree(world).tree }
  dropWorld(world)
  return out
}

describe('I/O errors in a run', () => {
  test('ENOSPC, EIO or EACCES at every mutating operation: a named error, no success, no temp file, and the resume ends as the clean run', async () => {
    const { ops, reference } = await cleanRun()
    const problems: string[] = []
    let points = 0
    const faults: { label: string; fault: (k: number) => Fault }[] = [
      ...CODES.map((code) => ({ label: code, fault: (at: number): Fault => ({ kind: 'errno', at, code }) })),
      { label: 'ENOSPC on a disk that stays full', fault: (at: number): Fault => ({ kind: 'errno', at, code: 'ENOSPC', persists: FULL_DISK }) },
      {
        label: 'a short write, then ENOSPC',
        fault: (at: number): Fault => ({ kind: 'errno', at, code: 'ENOSPC', shortWrite: true, persists: (op) => op === 'write' || op === 'ftruncate' }),
      },
    ]
    for (const { label, fault } of faults) {
      for (let k = 0; k < ops.length; k++) {
        if (label.startsWith('a short write') && ops[k] !== 'write') continue
        points++
        const world = copyWorld(fresh, disk.dir)
        const fs = new FaultFs({ fault: fault(k) })
        const where = `${label} at k=${k} (${ops[k]})`
        const launched = await launch(world, fs, { shape: SHAPE })
        await fs.settle()
        if (launched.measured !== undefined) problems.push(`${where}: the run reported success`)
        if (named(launched.error) === undefined) problems.push(`${where}: failed with an unnamed error: ${String(launched.error)}`)
        const temps = tempFilesIn(snapshotTree(world.dir))
        if (temps.length > 0) problems.push(`${where}: left ${temps.join(', ')}`)
        const recovery = await recoverRun(world, SHAPE)
        if (recovery.launched?.error !== undefined) problems.push(`${where}: recovery (${recovery.path}) failed: ${String(recovery.launched.error)}`)
        if (recovery.launched !== undefined && recovery.launched.calls.join() !== expectedCalls(recovery.reused, SHAPE).join()) {
          problems.push(`${where}: recovery (${recovery.path}) called ${recovery.launched.calls.join(' ')}`)
        }
        const diff = treeDifference(settledTree(world).tree, reference)
        if (diff !== undefined) problems.push(`${where}: ${diff}`)
        dropWorld(world)
      }
    }
    figure('I/O error points', points, `run (${ops.length} mutating operations): ENOSPC, EIO, EACCES, a full disk, a short write`)
    expect(problems).toEqual([])
  })

  test('an fsync that fails stops the run with StoreWriteError naming EIO, and the run is never reported', async () => {
    const { ops } = await cleanRun()
    const fsyncs = ops.flatMap((op, k) => (op === 'fsync' ? [k] : []))
    expect(fsyncs.length).toBeGreaterThan(10)
    for (const k of fsyncs) {
      const world = copyWorld(fresh, disk.dir)
      const fs = new FaultFs({ fault: { kind: 'errno', at: k, code: 'EIO' } })
      const launched = await launch(world, fs, { shape: SHAPE })
      await fs.settle()
      expect(launched.measured, `fsync k=${k}`).toBeUndefined()
      expect(launched.error, `fsync k=${k}`).toBeInstanceOf(StoreWriteError)
      expect((launched.error as StoreWriteError).errno).toBe('EIO')
      expect((launched.error as StoreWriteError).message).toContain('next: ')
      dropWorld(world)
    }
    figure('I/O error points', fsyncs.length, 'run: a failed fsync (EIO) at every fsync, each a StoreWriteError')
  })

  test('ENOSPC in the middle of a case record: the record is cut back (or left as a torn tail), never fused with the next', async () => {
    const { ops } = await cleanRun()
    const world = copyWorld(fresh, disk.dir)
    const probe = new FaultFs()
    await launch(world, probe, { shape: SHAPE })
    dropWorld(world)
    const leg = `${runKey(SHAPE)}.1.jsonl`
    // The header is written under the leg's temp name, before the leg has its name (ADR 0560): every write to the leg is a record's.
    const recordWrites = probe.mutations.flatMap((e, k) => (e.op === 'write' && e.path.endsWith(leg) && k > 0 ? [k] : []))
    expect(recordWrites.length).toBeGreaterThan(3)
    for (const truncateFails of [false, true]) {
      for (const k of recordWrites) {
        const w = copyWorld(fresh, disk.dir)
        const persists = (op: FaultOp) => op === 'write' || (truncateFails && op === 'ftruncate')
        const fs = new FaultFs({ fault: { kind: 'errno', at: k, code: 'ENOSPC', shortWrite: true, persists } })
        const launched = await launch(w, fs, { shape: SHAPE })
        await fs.settle()
        expect((launched.error as StoreWriteError).errno, `k=${k} (${ops[k]})`).toBe('ENOSPC')
        const bytes = readFileSync(join(w.root, TENANT, 'runs', SUITE, '.pending', leg))
        const fragment = bytes.subarray(bytes.lastIndexOf(0x0a) + 1)
        expect(fragment.length > 0, `k=${k}: a partial record stays only when ftruncate fails`).toBe(truncateFails)
        const [pending] = await new FileResultStore({ root: w.root }).pending(TENANT, SUITE)
        expect(pending?.refusal).toBeUndefined()
        expect([...pending!.done.keys()]).toEqual(launched.acknowledged)
        const recovery = await recoverRun(w, SHAPE)
        expect(recovery.path).toBe('resume')
        expect(recovery.launched?.error).toBeUndefined()
        dropWorld(w)
      }
    }
    figure('I/O error points', recordWrites.length * 2, 'journal: ENOSPC inside a case record, with and without a working ftruncate')
  })
})

describe('I/O errors in a promotion', () => {
  const [FIRST_AT, SECOND_AT] = createdAtSeconds(2)
  const first = makeRun({ createdAt: FIRST_AT })
  const second = makeRun({ createdAt: SECOND_AT, results: 4 })

  function promote(world: World, fs?: FsLayer) {
    return promoteRun({
      store: new FileResultStore(fs === undefined ? { root: world.root } : { root: world.root, fs }),
      tenant: 'acme',
      suite: 'capitals',
      key: keyOf(second),
      replacing: keyOf(first),
      currentConfigHash: async () => DEFAULT_CONFIG_HASH,
      now: () => '2026-12-01T09:00:00.000001Z',
    })
  }

  test('a failed promotion leaves the baseline and the register as they were; repeated, it ends as a clean one (a fault after the commit point: a promotion that succeeded)', async () => {
    const start = makeWorld(disk.dir)
    const store = new FileResultStore({ root: start.root })
    await store.writeRun(first)
    await store.writeRun(second)
    await promoteRun({
      store,
      tenant: 'acme',
      suite: 'capitals',
      key: keyOf(first),
      replacing: undefined,
      currentConfigHash: async () => DEFAULT_CONFIG_HASH,
      now: () => '2026-11-30T09:00:00.000001Z',
    })
    const clean = copyWorld(start, disk.dir)
    const probe = new FaultFs()
    await promote(clean, probe)
    const reference = settledTree(clean).tree
    const opNames = probe.mutations.map((e) => `${e.op} ${e.path.replace(clean.dir, '')}`)
    const baseline = (w: World) => readFileSync(join(w.root, 'acme', 'baselines', 'capitals.json'))
    const register = (w: World) => readFileSync(join(w.root, 'acme', 'register.jsonl'))
    const promoted = { baseline: baseline(clean), register: register(clean) }
    dropWorld(clean)
    // The commit point is the fsync of the register line: from then on the promotion is on disk
    // whole, and the one operation after it, removing the promotion lock, cannot undo it. A fault
    // there leaves a complete promotion, which reports success (its lock is broken by the next one).
    const commitAt = opNames.findLastIndex((name) => name.startsWith('fsync ') && name.endsWith('/register.jsonl'))
    expect(opNames.slice(commitAt + 1)).toEqual(['unlink /project/.digline/acme/.promote.lock'])
    const problems: string[] = []
    for (const code of CODES) {
      for (let k = 0; k < probe.mutations.length; k++) {
        const world = copyWorld(start, disk.dir)
        const where = `${code} at k=${k} (${opNames[k]})`
        const error = await promote(world, new FaultFs({ fault: { kind: 'errno', at: k, code } })).then(
          () => undefined,
          (e: unknown) => e,
        )
        const outcome = k > commitAt ? promoted : { baseline: baseline(start), register: register(start) }
        if (k > commitAt) {
          if (error !== undefined) problems.push(`${where}: failed after the commit point: ${String(error)}`)
        } else if (named(error) === undefined) {
          problems.push(`${where}: ${error === undefined ? 'reported success' : `unnamed error ${String(error)}`}`)
        }
        if (!baseline(world).equals(outcome.baseline)) problems.push(`${where}: the baseline is not ${k > commitAt ? 'the promoted one' : 'as it was'}`)
        if (!register(world).equals(outcome.register)) problems.push(`${where}: the register is not ${k > commitAt ? 'the promoted one' : 'as it was'}`)
        const temps = tempFilesIn(snapshotTree(world.dir))
        if (temps.length > 0) problems.push(`${where}: left ${temps.join(', ')}`)
        await promote(world).catch((e: unknown) => problems.push(`${where}: the repeated promote failed: ${String(e)}`))
        const diff = treeDifference(settledTree(world).tree, reference)
        if (diff !== undefined) problems.push(`${where}: ${diff}`)
        dropWorld(world)
      }
    }
    figure('I/O error points', CODES.length * probe.mutations.length, `promote (${probe.mutations.length} mutating operations): ENOSPC, EIO, EACCES`)
    dropWorld(start)
    expect(problems).toEqual([])
  })
})
