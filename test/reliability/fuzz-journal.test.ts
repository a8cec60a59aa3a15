// The journal's reader against malformed legs (SPEC §6, §9): FUZZ_RUNS legs (300; 10,000 with
// DIGLINE_RELIABILITY_LONG=1) made by fast-check, mostly by mutating a valid leg, through pending()
// and the strict read dropPending() makes before it removes anything. Each answers or refuses by
// name, and the store is byte-identical afterwards. The exact torn-tail rule holds too: a cut anywhere
// keeps every whole record before it, and a flipped bit anywhere but the last newline refuses (every
// byte is flipped: in CI one bit of each, bits 0, 3 and 6 in turn; all three of each in the long mode).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FileJournal } from '../../src/store/file/journal.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { DECLARED, expectedDone, journalHeader, KEY, LEG_1, SUITE, TENANT } from '../store/journal-fixtures.js'
import { mountTmpfs, type Tmpfs } from '../helpers/tmpfs.js'
import { figure, FUZZ_RUNS, LONG } from './support/figures.js'
import { assertNamed, assertRefusalData, fuzzReader, plant } from './support/fuzz.js'
import { dropWorld, makeWorld, type World } from './support/run-scenario.js'

let disk: Tmpfs
let world: World
let store: FileResultStore

beforeAll(() => {
  disk = mountTmpfs('64m')
})
afterAll(() => disk.unmount())

function freshWorld(): void {
  if (world !== undefined) dropWorld(world)
  world = makeWorld(disk.dir)
  store = new FileResultStore({ root: world.root })
}

async function validJournal(records = LEG_1.slice(0, 4)): Promise<Buffer> {
  const w = makeWorld(disk.dir)
  // Declares only the cases written, so the leg (and the byte-by-byte loops over it) stays small.
  const declared = { samples: 1, digests: Object.fromEntries(records.map((r) => [r.result.case_id, DECLARED.digests[r.result.case_id]!])) }
  const leg = await new FileJournal({ root: w.root }).openJournal(journalHeader({ declared }), 1)
  for (const r of records) await leg.append(r)
  await leg.close()
  const bytes = readFileSync(join(w.root, TENANT, 'runs', SUITE, '.pending', `${KEY}.1.jsonl`))
  dropWorld(w)
  return bytes
}

describe('fuzzing the journal reader (pending, and the strict read before a drop)', () => {
  beforeAll(freshWorld)

  test(`${FUZZ_RUNS} fuzzed legs: a journal, or a refusal by name; nothing on disk changes`, async () => {
    const valid = await validJournal()
    const leg = join(world.root, TENANT, 'runs', SUITE, '.pending', `${KEY}.1.jsonl`)
    const inputs = await fuzzReader(world.dir, valid, leg, async (bytes) => {
      if (!bytes.includes(0x0a)) {
        // No whole line: provably empty, so the read removes the leg (with a note) instead of refusing.
        expect(await store.pending(TENANT, SUITE)).toEqual([])
        expect(existsSync(leg)).toBe(false)
        plant(leg, bytes)
        return
      }
      const pending = await store.pending(TENANT, SUITE).catch((e: unknown) => assertNamed(e, 'pending()'))
      if (typeof pending !== 'string') for (const p of pending) assertRefusalData(p.refusal, 'pending()')
      // no run document exists, so a drop must refuse whatever the leg holds
      const dropped = await store.dropPending(TENANT, SUITE, KEY).then(
        () => 'dropped',
        (e: unknown) => assertNamed(e, 'dropPending()'),
      )
      if (dropped === 'dropped') throw new Error('dropPending() removed the journal of a run that has no document')
    })
    figure('inputs fuzzed', inputs * 2, 'journal legs: pending() and the strict read of dropPending()')
  })

  test('a cut at every byte keeps exactly the whole records before it; a flipped bit anywhere but the last newline refuses', async () => {
    const records = LEG_1.slice(0, 4)
    const valid = await validJournal(records)
    const leg = join(world.root, TENANT, 'runs', SUITE, '.pending', `${KEY}.1.jsonl`)
    const ends: number[] = []
    for (let i = valid.indexOf(0x0a); i >= 0; i = valid.indexOf(0x0a, i + 1)) ends.push(i + 1)
    let inputs = 0
    for (let cut = ends[0]!; cut <= valid.length; cut++) {
      plant(leg, valid.subarray(0, cut))
      const [pending] = await store.pending(TENANT, SUITE)
      expect(pending?.refusal, `cut at ${cut}`).toBeUndefined()
      const whole = ends.filter((end) => end <= cut).length - 1
      const declaredAndObservedLines = 2
      expect(pending?.done, `cut at ${cut}`).toEqual(expectedDone(records.slice(0, Math.max(0, whole - declaredAndObservedLines))))
      inputs++
    }
    for (let at = 0; at < valid.length - 1; at++) {
      for (const bit of LONG ? [0, 3, 6] : [[0, 3, 6][at % 3]!]) {
        const flipped = Buffer.from(valid)
        flipped[at] = flipped[at]! ^ (1 << bit)
        plant(leg, flipped)
        const [pending] = await store.pending(TENANT, SUITE)
        expect(['CorruptJournalError', 'UnknownJournalVersionError'], `bit ${bit} of byte ${at}`).toContain(pending?.refusal?.name)
        expect(pending?.done.size).toBe(0)
        inputs++
      }
    }
    figure('inputs fuzzed', inputs, `journal legs: every cut and ${LONG ? 'three bit flips' : 'a bit flip'} at every byte, held to the torn-tail rule`)
  })
})
