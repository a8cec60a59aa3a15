// A delete stopped after its k-th mutation, for every k, then repeated (ADR 0044 §4's table, by
// measurement): after the stop, only files of the plan are gone, in the plan's order (leaves first,
// each one's legs before its document) and only removal records were added; after the repeat, the
// contract of deleteRun holds and nothing outside the plan changed.
import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { serializeRun } from '../../src/document/serialize.js'
import { removalRecordSchema } from '../../src/store/removal.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { keyOf } from '../helpers/make-run.js'
import { crashingFs } from './crashing-fs.js'
import { expectGone, fileRun, promote, runDoc, TENANT, writeNameTable } from './delete-fixtures.js'
import { makeTempStore, type TempStore } from './temp-store.js'

const made: TempStore[] = []
afterEach(() => {
  for (const temp of made.splice(0)) temp.cleanup()
})

interface Tree {
  temp: TempStore
  k: string
  chain: { suite: string; key: string }[]
  /** The files of the plan, in the order the delete must remove them (relative to the store root). */
  order: string[]
}

/** K in s (2 legs), R1 of K in t (1 leg), R2 of R1 in s, R3 of K in u filed under a wrong name; and bystanders. */
async function buildTree(): Promise<Tree> {
  const temp = makeTempStore()
  made.push(temp)
  const store = temp.store
  const k = await fileRun(store, { suite: 's', at: 1, legs: 2 })
  const r1 = await fileRun(store, { suite: 't', at: 2, legs: 1, replayOf: { suite: 's', key: k } })
  const r2 = await fileRun(store, { suite: 's', at: 3, replayOf: { suite: 't', key: r1 } })
  const r3 = runDoc({ suite: 'u', at: 4, replayOf: { suite: 's', key: k } })
  temp.plant(TENANT, 'u', 'misnamed', serializeRun(r3))
  await fileRun(store, { suite: 's', at: 10 })
  await fileRun(store, { suite: 't', at: 11, legs: 1, document: false })
  const promoted = await fileRun(store, { suite: 'u', at: 12 })
  await promote(store, 'u', promoted)
  temp.plant(TENANT, 't', 'garbage', '{ not json')
  writeNameTable(temp.root)
  const order = [
    `runs/s/${r2}.json`,
    'runs/u/misnamed.json',
    `runs/t/.pending/${r1}.1.jsonl`,
    `runs/t/${r1}.json`,
    `runs/s/.pending/${k}.1.jsonl`,
    `runs/s/.pending/${k}.2.jsonl`,
    `runs/s/${k}.json`,
  ]
  return {
    temp,
    k,
    chain: [
      { suite: 's', key: k },
      { suite: 't', key: r1 },
      { suite: 's', key: r2 },
      { suite: 'u', key: keyOf(r3) },
    ],
    order: order.map((p) => `${TENANT}/${p}`),
  }
}

/** Every file under the store root: relative path → sha256. */
function files(temp: TempStore): Map<string, string> {
  const out = new Map<string, string>()
  for (const entry of temp.snapshot()) {
    if (entry.type !== 'file' && entry.type !== 'symlink') continue
    const path = relative(temp.root, join(temp.dir, entry.path))
    if (path.startsWith('..')) continue
    out.set(path, entry.type === 'file' ? entry.sha256 : `-> ${entry.target}`)
  }
  return out
}

const isRecordArea = (path: string) => path.startsWith(`${TENANT}/removed/`)

function expectOnlyThePlanChanged(before: Map<string, string>, after: Map<string, string>, removedAtMost: readonly string[]): string[] {
  const removed = [...before.keys()].filter((p) => !after.has(p))
  expect(
    removed.every((p) => removedAtMost.includes(p)),
    `removed outside the plan: ${removed.join(', ')}`,
  ).toBe(true)
  expect([...before].filter(([p, h]) => after.has(p) && after.get(p) !== h)).toEqual([])
  expect([...after.keys()].filter((p) => !before.has(p) && !isRecordArea(p))).toEqual([])
  return removed
}

test('interrupted after every mutation, then repeated: the plan is removed in order, and only the plan', async () => {
  const probe = await buildTree()
  const counting = crashingFs(Number.POSITIVE_INFINITY)
  await new FileResultStore({ root: probe.temp.root, fs: counting }).deleteRun(TENANT, 's', probe.k)
  const total = counting.done
  expect(total).toBeGreaterThan(probe.order.length)

  const seenPrefixes = new Set<number>()
  // k = total is the last row of the table: the document is gone and only the return was left to do.
  for (let k = 0; k <= total; k++) {
    const tree = await buildTree()
    const before = files(tree.temp)
    const crashing = crashingFs(k)
    const first = new FileResultStore({ root: tree.temp.root, fs: crashing }).deleteRun(TENANT, 's', tree.k)
    if (k < total) await expect(first).rejects.toThrow()
    else await first
    expect(crashing.crashed).toBe(k < total)

    const stopped = files(tree.temp)
    const removed = expectOnlyThePlanChanged(before, stopped, tree.order)
    // The removal order is a condition (ADR 0044 §4): what is gone is always a prefix of the plan's order.
    expect(new Set(removed)).toEqual(new Set(tree.order.slice(0, removed.length)))
    seenPrefixes.add(removed.length)

    const removal = await tree.temp.store.deleteRun(TENANT, 's', tree.k)
    const after = files(tree.temp)
    expect(expectOnlyThePlanChanged(before, after, tree.order).sort()).toEqual([...tree.order].sort())
    await expectGone(tree.temp.store, tree.chain)
    for (const ref of tree.chain) {
      const record = removalRecordSchema.parse(JSON.parse(readFileSync(join(tree.temp.root, TENANT, 'removed', ref.suite, `${ref.key}.json`), 'utf8')))
      expect(record.requested).toEqual({ suite: 's', key: tree.k })
    }
    const recordedBefore = stopped.has(`${TENANT}/removed/s/${tree.k}.json`)
    expect(removal.alreadyRemovedAt !== undefined).toBe(recordedBefore)
    expect(removal.nothing).toBe(removed.length === tree.order.length)
  }
  // Every state of the table was reached: nothing removed, each prefix of the order, everything removed.
  expect([...seenPrefixes].sort((a, b) => a - b)).toEqual(Array.from({ length: probe.order.length + 1 }, (_, i) => i))
  console.log(`delete interruptions: ${total} interruption points (one per mutation), each repeated to completion; removal prefixes reached: ${seenPrefixes.size}`)
})
