// Crash points of a delete (SPEC §8): at every mutating operation of `digline delete` (a run with a
// leftover journal leg and a replay in another suite), a crash or a power loss, then the same delete
// repeated: the store ends as after an uninterrupted delete (removal records compared without their
// removed_at, which is the clock's), and nothing outside the runs and the removal records changed.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { runDocumentSchema } from '../../src/document/schema.js'
import { FileJournal } from '../../src/store/file/journal.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { baselineOf } from '../../src/document/baseline.js'
import { FaultFs } from '../helpers/fault-fs.js'
import { createdAtSeconds, keyOf, makeRun } from '../helpers/make-run.js'
import { mountTmpfs, type Tmpfs } from '../helpers/tmpfs.js'
import { journalHeader, LEG_1 } from '../store/journal-fixtures.js'
import type { TreeEntry } from '../store/tree-snapshot.js'
import { ALL_KINDS, describeOps, exercisePoints, summarize } from './support/crash-driver.js'
import { figure } from './support/figures.js'
import { copyWorld, dropWorld, makeWorld, settledTree, type World } from './support/run-scenario.js'

const RUN = makeRun({ results: 3 })
const KEPT = makeRun({ createdAt: createdAtSeconds(1)[0], results: 2 })
const REPLAY = runDocumentSchema.parse({ ...makeRun({ createdAt: createdAtSeconds(2)[1], suite: 'rivers' }), rejudged_from: keyOf(RUN), rejudged_from_suite: 'capitals' })

let disk: Tmpfs
beforeAll(() => {
  disk = mountTmpfs('64m')
})
afterAll(() => disk.unmount())

/** The tree, each removal record by its content without removed_at (the clock's, so never equal twice). */
function normalized(world: World): TreeEntry[] {
  return settledTree(world).tree.map((entry) => {
    if (entry.type !== 'file' || !/\/removed\/[^/]+\/[^/.][^/]*\.json$/.test(entry.path)) return entry
    const { removed_at: _at, ...rest } = JSON.parse(readFileSync(join(world.dir, entry.path), 'utf8')) as Record<string, unknown>
    return { path: entry.path, type: 'file', size: 0, sha256: JSON.stringify(rest) }
  })
}

test('every crash and power-loss point of a delete, then the same delete again, ends as an uninterrupted delete', async () => {
  const start = makeWorld(disk.dir)
  const setup = new FileResultStore({ root: start.root })
  for (const doc of [RUN, KEPT, REPLAY]) await setup.writeRun(doc)
  await setup.writeBaseline(baselineOf(KEPT, keyOf(KEPT), '2026-12-01T09:00:00.000001Z'))
  const leg = await new FileJournal({ root: start.root }).openJournal(journalHeader(), 1)
  for (const r of LEG_1.slice(0, 2)) await leg.append(r)
  await leg.close()
  const remove = (world: World, fs?: FaultFs) => new FileResultStore(fs === undefined ? { root: world.root } : { root: world.root, fs }).deleteRun('acme', 'capitals', keyOf(RUN))

  const clean = copyWorld(start, disk.dir)
  const probe = new FaultFs()
  const removal = await remove(clean, probe)
  expect(removal.replays.map((r) => r.ref.suite)).toEqual(['rivers'])
  expect(removal.run).toMatchObject({ document: true, legs: 1 })
  const ops = describeOps(probe, clean)
  const reference = normalized(clean)
  dropWorld(clean)

  const points = await exercisePoints<unknown>({
    parent: disk.dir,
    start,
    ops,
    kinds: ALL_KINDS,
    operate: (world, fs) => remove(world, fs).catch((error: unknown) => error),
    async recover(world, _result, problems) {
      try {
        const again = await remove(world)
        const diff = JSON.stringify(normalized(world)) === JSON.stringify(reference) ? undefined : 'the store differs from an uninterrupted delete'
        if (diff !== undefined) problems.push(diff)
        return `repeated: ${again.nothing ? 'nothing left' : 'finished'}`
      } catch (error) {
        problems.push(`the repeated delete failed: ${error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error)}`)
        return 'repeated: refused'
      }
    },
    reference: [],
    compare: false,
  })
  const summary = summarize(points)
  figure('crash points', summary.crashPoints, `delete of a run with a leftover leg and a replay (${ops.length} mutating operations)`)
  figure('power-loss points', summary.powerLossPoints, 'delete')
  figure('documents differing', summary.problems.length, 'delete: points whose store differs after the repeated delete')
  figure('stray temp files', summary.withTemps.length, 'delete: points that left a .tmp file behind')
  for (const p of summary.withTemps) console.log(`[reliability]   delete k=${p.k} ${p.kind}: ${p.op}, left ${p.tempFiles.join(', ')}`)
  dropWorld(start)
  expect(summary.problems).toEqual([])
})
