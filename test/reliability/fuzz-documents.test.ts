// The readers of run documents, baselines, the register and removal records against malformed files
// (SPEC §4, §7, §8, §9): FUZZ_RUNS files each (300; 10,000 with DIGLINE_RELIABILITY_LONG=1) made by
// fast-check, mostly by mutating a valid one. Each reader answers or refuses by name, never anything
// else, and the store is byte-identical afterwards, but for the one repair the register reader makes
// (an unterminated last fragment, which only a torn append leaves, is cut off and said); a removal
// record, however mangled, still says removed.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, test } from 'vitest'
import { baselineOf, serializeBaseline, serializeRegisterEntry } from '../../src/document/baseline.js'
import { serializeRun } from '../../src/document/serialize.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { KEY, TENANT } from '../store/journal-fixtures.js'
import { makeRun } from '../helpers/make-run.js'
import { mountTmpfs, type Tmpfs } from '../helpers/tmpfs.js'
import { figure, FUZZ_RUNS } from './support/figures.js'
import { assertNamed, assertRefusalData, fuzzReader } from './support/fuzz.js'
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

describe('fuzzing the run document readers (readRun, listRuns, scanRuns)', () => {
  beforeAll(freshWorld)

  test(`${FUZZ_RUNS} fuzzed documents: a document of its own key, or a refusal by name; nothing on disk changes`, async () => {
    const doc = makeRun({ results: 3 })
    const file = join(world.root, TENANT, 'runs', 'capitals', `${KEY}.json`)
    const inputs = await fuzzReader(world.dir, Buffer.from(serializeRun(doc)), file, async () => {
      const read = await store.readRun(TENANT, 'capitals', KEY).catch((e: unknown) => assertNamed(e, 'readRun()'))
      if (typeof read !== 'string' && (read.tenant !== TENANT || read.suite !== 'capitals')) throw new Error('readRun() returned a document of another tenant or suite')
      const listing = await store.listRuns(TENANT, 'capitals')
      for (const run of listing.runs) assertRefusalData(run.refusal, 'listRuns()')
      const scan = await store.scanRuns(TENANT, 'capitals')
      for (const r of scan.refused) assertRefusalData(r.refusal, 'scanRuns()')
      if (scan.runs.length + scan.refused.length !== 1 || listing.runs.length !== 1) throw new Error('a reader lost or invented a run file')
    })
    figure('inputs fuzzed', inputs * 3, 'run documents: readRun(), listRuns() and scanRuns()')
  })
})

describe('fuzzing the baseline and register readers', () => {
  beforeAll(freshWorld)

  test(`${FUZZ_RUNS} fuzzed baselines: a baseline, or a refusal by name; nothing on disk changes`, async () => {
    const run = makeRun({ results: 3 })
    const valid = Buffer.from(serializeBaseline(baselineOf(run, KEY, '2026-12-01T09:00:00.000001Z')))
    const file = join(world.root, TENANT, 'baselines', 'capitals.json')
    const inputs = await fuzzReader(world.dir, valid, file, async () => {
      const read = await store.readBaseline(TENANT, 'capitals').catch((e: unknown) => assertNamed(e, 'readBaseline()'))
      if (read === undefined) throw new Error('readBaseline() said there is no baseline while a file is there')
    })
    figure('inputs fuzzed', inputs, 'baselines: readBaseline()')
  })

  test(`${FUZZ_RUNS} fuzzed registers: the entries, or a refusal by name; the only change on disk is an unterminated last fragment cut off`, async () => {
    const said: string[] = []
    const registers = new FileResultStore({ root: world.root, say: (line) => void said.push(line) })
    const entry = (i: number) => ({
      promoted_at: `2026-12-0${i}T09:00:00.000001Z`,
      suite: 'capitals',
      key: KEY,
      replaced: i === 1 ? null : KEY,
      config_hash: '3f9a0c1b2d4e',
      cases: 3,
      passed: 2,
      failed: 1,
      pass_rate: 2 / 3,
    })
    const valid = Buffer.from([1, 2, 3].map((i) => `${serializeRegisterEntry(entry(i))}\n`).join(''))
    const file = join(world.root, TENANT, 'register.jsonl')
    const terminated = (bytes: Buffer) => bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1)
    const inputs = await fuzzReader(
      world.dir,
      valid,
      file,
      async (bytes) => {
        said.length = 0
        await registers.readRegister(TENANT).catch((e: unknown) => assertNamed(e, 'readRegister()'))
        const torn = terminated(bytes).length < bytes.length
        if (torn !== (said.length === 1 && said[0]!.includes('torn line')))
          throw new Error(`readRegister() ${torn ? 'cut a torn last line without saying so' : 'said it cut a line it did not'}: ${said.join(' | ')}`)
      },
      terminated,
    )
    figure('inputs fuzzed', inputs, 'the register: readRegister()')
  })
})

describe('fuzzing the removal record reader', () => {
  beforeAll(freshWorld)

  test(`${FUZZ_RUNS} fuzzed removal records: the key still reads as removed, every writer refuses it by name; nothing on disk changes`, async () => {
    const doc = makeRun({ results: 3 })
    const record = {
      removal_version: 1,
      tenant: TENANT,
      suite: 'capitals',
      key: KEY,
      created_at: doc.created_at,
      removed_at: '2026-12-01T09:00:00.000001Z',
      removed: { document: true, legs: 0 },
      replay_of: null,
      requested: { suite: 'capitals', key: KEY },
    }
    const file = join(world.root, TENANT, 'removed', 'capitals', `${KEY}.json`)
    const inputs = await fuzzReader(world.dir, Buffer.from(`${JSON.stringify(record, null, 2)}\n`), file, async () => {
      const notice = await store.removalOf(TENANT, 'capitals', KEY).catch((e: unknown) => assertNamed(e, 'removalOf()'))
      if (notice === undefined) throw new Error('removalOf() said the key was never removed while its record is there')
      const written = await store.writeRun(doc).then(
        () => 'written',
        (e: unknown) => assertNamed(e, 'writeRun()'),
      )
      if (written === 'written') throw new Error('writeRun() brought a removed key back')
    })
    figure('inputs fuzzed', inputs * 2, 'removal records: removalOf() and the check writeRun() makes before writing')
  })
})
