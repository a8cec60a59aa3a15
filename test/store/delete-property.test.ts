// A property over random trees of runs, replays (across suites, misfiled, unreadable), journal legs,
// a baseline and an interruption anywhere: after the delete (stopped, then repeated), exactly what a
// model of ADR 0044 says is gone, every other file is byte-identical, and no reader returns a
// removed run. DIGLINE_PROPERTY_RUNS sets the number of trees (default 40).
import { join, relative } from 'node:path'
import fc from 'fast-check'
import { afterEach, expect, test } from 'vitest'
import { serializeRun } from '../../src/document/serialize.js'
import { PromotedRunError, UnreadableRunError } from '../../src/store/errors.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { keyOf } from '../helpers/make-run.js'
import { crashingFs } from './crashing-fs.js'
import { expectGone, fileRun, promote, runDoc, TENANT } from './delete-fixtures.js'
import { makeTempStore, type TempStore } from './temp-store.js'

const RUNS = Number(process.env.DIGLINE_PROPERTY_RUNS ?? 40)

type Suite = 's' | 't' | 'u'
interface NodeSpec {
  suite: Suite
  parent: number | null
  legs: number
  document: boolean
  misfiled: boolean
  unreadable: boolean
}
interface Case {
  nodes: NodeSpec[]
  target: number
  baseline: number | null
  interruptAt: number | null
}

const nodeArb = fc.record({
  suite: fc.constantFrom<Suite>('s', 't', 'u'),
  parent: fc.option(fc.nat(), { nil: null }),
  legs: fc.nat({ max: 2 }),
  document: fc.boolean(),
  misfiled: fc.boolean(),
  unreadable: fc.boolean(),
})

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    nodes: fc.array(nodeArb, { minLength: 1, maxLength: 7 }),
    target: fc.nat(),
    baseline: fc.option(fc.nat(), { nil: null }),
    interruptAt: fc.option(fc.nat({ max: 24 }), { nil: null, freq: 8 }),
  })
  .map(({ nodes, target, baseline, interruptAt }) => {
    const shaped = nodes.map((n, i) => {
      const parent = i === 0 || n.parent === null ? null : n.parent % i
      // A replay is a document; misfiled and unreadable are rarer than not.
      return { ...n, parent, document: parent !== null || n.document, misfiled: n.misfiled && n.legs % 2 === 0, unreadable: n.unreadable && n.legs === 1 }
    })
    const base = baseline === null ? null : baseline % shaped.length
    const promotable = base !== null && shaped[base]!.parent === null && shaped[base]!.document && !shaped[base]!.misfiled && !shaped[base]!.unreadable
    return { nodes: shaped, target: target % shaped.length, baseline: promotable ? base : null, interruptAt }
  })

const made: TempStore[] = []
afterEach(() => {
  for (const temp of made.splice(0)) temp.cleanup()
})

function files(temp: TempStore): Map<string, string> {
  const out = new Map<string, string>()
  for (const e of temp.snapshot()) {
    const path = relative(temp.root, join(temp.dir, e.path))
    if (!path.startsWith('..') && e.type === 'file') out.set(path, e.sha256)
  }
  return out
}

async function build(c: Case) {
  const temp = makeTempStore()
  made.push(temp)
  const keys: string[] = []
  const fileOf: string[] = []
  for (const [i, n] of c.nodes.entries()) {
    const replayOf = n.parent === null ? undefined : { suite: c.nodes[n.parent]!.suite, key: keys[n.parent]! }
    const doc = runDoc({ suite: n.suite, at: i + 1, ...(replayOf === undefined ? {} : { replayOf }) })
    keys.push(keyOf(doc))
    await fileRun(temp.store, { suite: n.suite, at: i + 1, legs: n.legs, document: false, ...(replayOf === undefined ? {} : { replayOf }) })
    const name = n.misfiled ? `misfiled-${i}` : keys[i]!
    fileOf.push(`${TENANT}/runs/${n.suite}/${name}.json`)
    if (n.document) temp.plant(TENANT, n.suite, name, n.unreadable ? '{ "created_at": ' : serializeRun(doc))
  }
  if (c.baseline !== null) await promote(temp.store, c.nodes[c.baseline]!.suite, keys[c.baseline]!)
  return { temp, keys, fileOf }
}

/** The model: which nodes the delete reaches, and which files it removes. */
function expected(c: Case, keys: readonly string[], fileOf: readonly string[]) {
  const readable = (i: number) => c.nodes[i]!.document && !c.nodes[i]!.unreadable
  const chain: number[] = []
  const queue = [c.target]
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    for (const [i, n] of c.nodes.entries()) {
      if (n.parent === at && readable(i) && !chain.includes(i)) {
        chain.push(i)
        queue.push(i)
      }
    }
  }
  const removed = new Set<string>()
  const legsOf = (i: number) => Array.from({ length: c.nodes[i]!.legs }, (_, l) => `${TENANT}/runs/${c.nodes[i]!.suite}/.pending/${keys[i]}.${l + 1}.jsonl`)
  for (const i of [c.target, ...chain]) for (const leg of legsOf(i)) removed.add(leg)
  for (const i of chain) removed.add(fileOf[i]!)
  if (readable(c.target)) removed.add(fileOf[c.target]!)
  return { chain, removed }
}

test('a delete, stopped anywhere and repeated, removes exactly the model’s files and nothing else', async () => {
  let interrupted = 0
  let refused = 0
  await fc.assert(
    fc.asyncProperty(caseArb, async (c) => {
      const { temp, keys, fileOf } = await build(c)
      const target = c.nodes[c.target]!
      const before = files(temp)
      const first = new FileResultStore({ root: temp.root, fs: crashingFs(c.interruptAt ?? Number.POSITIVE_INFINITY) }).deleteRun(TENANT, target.suite, keys[c.target]!)
      if (c.baseline === c.target || (target.document && !target.misfiled && target.unreadable)) {
        await expect(first).rejects.toBeInstanceOf(c.baseline === c.target ? PromotedRunError : UnreadableRunError)
        expect(files(temp)).toEqual(before)
        refused += 1
        return
      }
      const done = await first.then(
        (removal) => removal,
        () => undefined,
      )
      if (done === undefined) interrupted += 1
      const repeat = await temp.store.deleteRun(TENANT, target.suite, keys[c.target]!)
      if (done !== undefined) expect(repeat.nothing).toBe(true)
      const model = expected(c, keys, fileOf)
      const after = files(temp)
      const gone = [...before.keys()].filter((p) => !after.has(p)).sort()
      expect(gone).toEqual([...model.removed].sort())
      expect([...before].filter(([p, h]) => after.has(p) && after.get(p) !== h)).toEqual([])
      expect([...after.keys()].filter((p) => !before.has(p) && !p.startsWith(`${TENANT}/removed/`) && p !== '.gitignore')).toEqual([])
      await expectGone(
        temp.store,
        [c.target, ...model.chain].map((i) => ({ suite: c.nodes[i]!.suite, key: keys[i]! })),
      )
      if (done !== undefined) expect(done.replays.map((r) => r.ref.key).sort()).toEqual(model.chain.map((i) => keys[i]!).sort())
      const anything = model.removed.size > 0
      expect((await temp.store.removalOf(TENANT, target.suite, keys[c.target]!)) !== undefined).toBe(anything)
    }),
    { numRuns: RUNS },
  )
  console.log(`delete property: ${RUNS} random trees, ${interrupted} interrupted and repeated, ${refused} refused before any change`)
})
