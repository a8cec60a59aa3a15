// The journal on a real filesystem: records written through FileJournal and read back, torn at every
// byte of the last record, corrupted in the middle, at an unknown version, raced for, completed.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { constants, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import * as zlib from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { serializeCase, serializeRun } from '../../src/document/serialize.js'
import { CorruptJournalError, JournalLegExistsError, RunNotFoundError, StoreWriteError, UnknownJournalVersionError } from '../../src/store/errors.js'
import { PathRefusedError } from '../../src/suite/errors.js'
import { tempNameOf } from '../../src/store/file/atomic-write.js'
import { FileJournal } from '../../src/store/file/journal.js'
import { processStartTime } from '../../src/store/live-writer.js'
import { nodeFsLayer, type FsLayer } from '../../src/store/file/fs-layer.js'
import { checksumOf, crc32Portable, encodeDeclared, encodeHeader, encodeLine, parseLegName } from '../../src/store/journal-format.js'
import { JOURNAL_VERSION, type JournalHeader, type Pending } from '../../src/store/journal.js'
import { FaultFs } from '../helpers/fault-fs.js'
import { makeRun } from '../helpers/make-run.js'
import { ObservedIdentity } from '../../src/driver/observed-identity.js'
import type { Observed } from '../../src/document/schema.js'
import { refusalOf } from './contract.js'
import {
  errored,
  expectedCauses,
  expectedDone,
  journalHeader,
  judged,
  KEY,
  LEG_1,
  LEG_2,
  legFile,
  lineRanges,
  OBSERVED_1,
  OBSERVED_2,
  progress,
  SUITE,
  TENANT,
  writeJournal,
} from './journal-fixtures.js'
import { makeTempStore, type TempStore } from './temp-store.js'

const BINDING = { tenant: TENANT, suite: SUITE, key: KEY }

function headerOnly(opening: ReturnType<typeof journalHeader>): Omit<JournalHeader, 'leg'> {
  const { declared: _declared, ...header } = opening
  return header
}

let temp: TempStore
let journal: FileJournal

beforeEach(() => {
  temp = makeTempStore()
  journal = new FileJournal({ root: temp.root })
})
afterEach(() => temp.cleanup())

async function onlyPending(): Promise<Pending> {
  const all = await journal.pending(TENANT, SUITE)
  expect(all.map((p) => p.key)).toEqual([KEY])
  return all[0]!
}

function lines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').slice(0, -1)
}

function recordOf(line: string): Record<string, unknown> {
  return JSON.parse(line.slice(9)) as Record<string, unknown>
}

/** Reads the journal, expects a refusal of that class naming file and line, and nothing on disk changed. */
async function expectRefused(name: string, file: string, line: number | undefined): Promise<Pending> {
  const before = temp.snapshot()
  const pending = await onlyPending()
  expect(pending.refusal?.name).toBe(name)
  expect(pending.refusal?.message).toContain(line === undefined ? file : `${file} line ${line} `)
  expect(pending.refusal?.message).toContain('next: ')
  expect(pending.done.size).toBe(0)
  expect(temp.snapshot()).toEqual(before)
  return pending
}

function flipByte(file: string, offset: number): void {
  const bytes = readFileSync(file)
  bytes[offset] = bytes[offset]! ^ 0x01
  writeFileSync(file, bytes)
}

describe('the round trip', () => {
  beforeEach(() => writeJournal(journal))

  it('rebuilds every case, last record winning across legs, with causes and the last observed identities', async () => {
    const pending = await onlyPending()
    expect(pending.refusal).toBeUndefined()
    expect(pending.legs).toEqual([1, 2])
    expect(pending.finished).toBe(false)
    expect(pending.header).toEqual({ ...headerOnly(journalHeader({ started_at: '2026-11-29T22:40:00.000001Z' })), leg: 1 })
    expect(pending.leases.map((l) => [l.leg, l.lease, l.live])).toEqual([1, 2].map((leg) => [leg, pending.header!.lease, false]))
    expect(pending.declared).toEqual(journalHeader().declared)
    expect(pending.done).toEqual(expectedDone())
    expect(pending.done.size).toBe(18)
    expect(pending.done.get('case-00003')).toEqual(judged(3))
    expect(pending.causes).toEqual(new Map([['case-00007', 'mapper']]))
    expect(pending.observed).toEqual(OBSERVED_2)
  })

  it('writes one line per record: the header, then observed only when the identities change, then the cases', () => {
    const kinds = (leg: number) => lines(legFile(temp.root, leg)).map((l) => recordOf(l).kind)
    expect(kinds(1)).toEqual(['header', 'cases', 'observed', ...LEG_1.map(() => 'case')])
    expect(kinds(2)).toEqual(['header', 'cases', 'observed', 'case', 'case', 'observed', ...Array(6).fill('case')])
    for (const line of lines(legFile(temp.root, 1))) expect(line).toMatch(/^[0-9a-f]{8} \{/)
  })

  it("writes an observed record when the identities change, whether it is handed the driver's frozen snapshot or an object its caller changes in place", async () => {
    for (const [i, kind] of ['frozen', 'mutable'].entries()) {
      const frozen = new ObservedIdentity()
      const mutable: Observed = { target_model: null, judge_models: {} }
      const observed = (): Observed => (kind === 'frozen' ? frozen.snapshot() : mutable)
      const leg = await journal.openJournal(journalHeader({ started_at: `2026-11-29T22:5${i}:00.000001Z` }), 10 + i)
      await leg.append(progress(judged(0), observed(), 0))
      await leg.append(progress(judged(1), observed(), 1))
      frozen.seeTarget('geo-v1-2026-01')
      mutable.target_model = 'geo-v1-2026-01'
      await leg.append(progress(judged(2), observed(), 2))
      frozen.seeJudge('judge', 'j-2026-02')
      mutable.judge_models.judge = 'j-2026-02'
      await leg.append(progress(judged(3), observed(), 3))
      await leg.append(progress(judged(4), observed(), 4))
      await leg.close()
      const records = lines(legFile(temp.root, 10 + i))
        .slice(2)
        .map((l) => recordOf(l))
      expect(records.map((r) => r.kind)).toEqual(['observed', 'case', 'case', 'observed', 'case', 'observed', 'case', 'case'])
      expect(records.filter((r) => r.kind === 'observed').map((r) => r.observed)).toEqual([
        { target_model: null, judge_models: {} },
        { target_model: 'geo-v1-2026-01', judge_models: {} },
        { target_model: 'geo-v1-2026-01', judge_models: { judge: 'j-2026-02' } },
      ])
    }
  })

  it("holds each case as the run document's serializer writes it, plus its cause", () => {
    const caseLines = lines(legFile(temp.root, 1)).slice(3)
    caseLines.forEach((line, i) => {
      expect(line.slice(9)).toBe(`{"kind":"case","run":"${KEY}","cause":${JSON.stringify(LEG_1[i]!.cause)},"case":${serializeCase(LEG_1[i]!.result)}}`)
    })
  })

  it('ignores temp files and names that are not legs in .pending', async () => {
    const dir = join(temp.root, TENANT, 'runs', SUITE, '.pending')
    for (const name of [`.${KEY}.3.jsonl.123.abc.tmp`, `${KEY}.0.jsonl`, `${KEY}.01.jsonl`, `${KEY}.jsonl`, 'notes.txt', `..1.jsonl`]) writeFileSync(join(dir, name), 'x')
    expect((await onlyPending()).done).toEqual(expectedDone())
  })
})

describe('a torn tail', () => {
  beforeEach(() => writeJournal(journal))

  it('is dropped at every byte offset of the last record, and every earlier case survives', async () => {
    const file = legFile(temp.root, 2)
    const whole = readFileSync(file)
    const last = lineRanges(file).at(-1)!
    const withoutLast = expectedDone([...LEG_1, ...LEG_2.slice(0, -1)])
    for (let offset = last.start; offset < last.end; offset++) {
      writeFileSync(file, whole.subarray(0, offset))
      const pending = await onlyPending()
      expect(pending.refusal, `cut at byte ${offset}`).toBeUndefined()
      expect(pending.done, `cut at byte ${offset}`).toEqual(withoutLast)
    }
    writeFileSync(file, whole)
    expect((await onlyPending()).done).toEqual(expectedDone())
  })

  it('is dropped in an earlier leg too (each leg ends where its process was killed)', async () => {
    const file = legFile(temp.root, 1)
    const last = lineRanges(file).at(-1)!
    writeFileSync(file, readFileSync(file).subarray(0, last.start + 20))
    const pending = await onlyPending()
    expect(pending.refusal).toBeUndefined()
    expect(pending.done).toEqual(expectedDone([...LEG_1.slice(0, -1), ...LEG_2]))
  })

  it('of a header makes that leg provably empty: the next look at the journal removes it, with a note, instead of refusing', async () => {
    const notes: string[] = []
    journal = new FileJournal({ root: temp.root, onSwept: (line) => notes.push(line) })
    const second = legFile(temp.root, 2)
    writeFileSync(second, readFileSync(second).subarray(0, 30))
    const pending = await onlyPending()
    expect(pending.refusal).toBeUndefined()
    expect(pending.legs).toEqual([1])
    expect(pending.done).toEqual(expectedDone(LEG_1))
    expect(existsSync(second)).toBe(false)
    expect(notes).toEqual([expect.stringContaining(`removed the journal leg ${second}`)])
    const first = legFile(temp.root, 1)
    writeFileSync(first, '')
    expect(await journal.pending(TENANT, SUITE)).toEqual([])
    expect(existsSync(first)).toBe(false)
  })

  it('a leg whose first line is whole but not a header is still refused by name (it is not provably empty)', async () => {
    const first = legFile(temp.root, 1)
    writeFileSync(first, Buffer.concat([readFileSync(first).subarray(0, 30), Buffer.from('\n')]))
    const pending = await expectRefused('CorruptJournalError', first, 1)
    expect(existsSync(first)).toBe(true)
    expect(pending.refusal?.message).toContain('line 1')
  })
})

describe('a corrupt journal is refused by name and left on disk', () => {
  beforeEach(() => writeJournal(journal))

  it('a line that is not a record in the middle', async () => {
    const file = legFile(temp.root, 1)
    const all = lines(file)
    all[5] = 'not a record at all'
    writeFileSync(file, `${all.join('\n')}\n`)
    await expectRefused('CorruptJournalError', file, 6)
    const error = await refusalOf(journal.dropPending(TENANT, SUITE, KEY), CorruptJournalError)
    expect(error.message).toContain(`${file} line 6 `)
  })

  it('a flipped byte inside a middle record (the checksum catches it)', async () => {
    const file = legFile(temp.root, 1)
    const line = lineRanges(file)[6]!
    flipByte(file, line.start + 40)
    const pending = await expectRefused('CorruptJournalError', file, 7)
    expect(pending.refusal?.message).toContain('does not match its checksum')
  })

  it('a flipped byte in the checksum itself', async () => {
    const file = legFile(temp.root, 2)
    const line = lineRanges(file)[3]!
    const bytes = readFileSync(file)
    bytes[line.start + 2] = bytes[line.start + 2] === 0x30 ? 0x31 : 0x30
    writeFileSync(file, bytes)
    await expectRefused('CorruptJournalError', file, 4)
    bytes[line.start + 2] = 0x5a // 'Z': not even hex
    writeFileSync(file, bytes)
    await expectRefused('CorruptJournalError', file, 4)
  })

  it('a flipped byte in the final complete record (it ends in a newline, so it is not a torn tail)', async () => {
    const file = legFile(temp.root, 2)
    const last = lineRanges(file).at(-1)!
    flipByte(file, last.end - 3)
    await expectRefused('CorruptJournalError', file, lineRanges(file).length)
  })

  it('an unknown kind, an invalid case and an invalid observed record, each with a valid checksum', async () => {
    const file = legFile(temp.root, 1)
    const whole = readFileSync(file)
    const bad = [
      JSON.stringify({ kind: 'mystery' }),
      JSON.stringify({ kind: 'case', cause: null, case: { ...judged(1), score: 2 } }),
      JSON.stringify({ kind: 'case', cause: 'weather', case: judged(1) }),
      JSON.stringify({ kind: 'observed', observed: { target_model: 3 } }),
      '[1,2]',
    ]
    for (const json of bad) {
      writeFileSync(file, Buffer.concat([whole, encodeLine(BINDING, json)]))
      await expectRefused('CorruptJournalError', file, lineRanges(file).length)
    }
  })

  it('a header that is not line 1', async () => {
    const file = legFile(temp.root, 2)
    writeFileSync(file, Buffer.concat([readFileSync(file), encodeHeader(BINDING, { ...journalHeader(), leg: 2 })]))
    const pending = await expectRefused('CorruptJournalError', file, lineRanges(file).length)
    expect(pending.refusal?.message).toContain('a header belongs only on line 1')
  })

  it('a leg whose header differs from leg 1 in a field that defines the run, or names another leg or run', async () => {
    const file = legFile(temp.root, 2)
    const body = readFileSync(file).subarray(lineRanges(file)[0]!.end)
    const cases = [
      { header: encodeHeader(BINDING, { ...journalHeader({ cases_digest: 'changed' }), leg: 2 }), says: 'cases_digest' },
      { header: encodeHeader(BINDING, { ...journalHeader({ record_responses: true }), leg: 2 }), says: 'record_responses' },
      { header: encodeHeader(BINDING, { ...journalHeader(), leg: 3 }), says: 'the header of leg 3' },
      { header: encodeHeader(BINDING, { ...journalHeader({ suite: 'rivers' }), leg: 2 }), says: 'suite rivers' },
      { header: encodeLine(BINDING, JSON.stringify({ kind: 'observed', run: KEY, observed: OBSERVED_1 })), says: 'where the leg' },
    ]
    for (const { header, says } of cases) {
      writeFileSync(file, Buffer.concat([header, body]))
      const pending = await expectRefused('CorruptJournalError', file, 1)
      expect(pending.refusal?.message).toContain(says)
    }
  })

  it('a leg that is a symlink is never followed', async () => {
    const { symlinkSync, unlinkSync } = await import('node:fs')
    const file = legFile(temp.root, 2)
    unlinkSync(file)
    symlinkSync(temp.sentinel, file)
    const pending = await onlyPending()
    expect(pending.refusal?.name).toBe(PathRefusedError.name)
  })
})

describe('an unknown journal_version', () => {
  it('is named and left on disk byte-identical, by pending() and by dropPending() of a finished run', async () => {
    await writeJournal(journal, [LEG_1])
    const file = legFile(temp.root, 1)
    const rest = readFileSync(file).subarray(lineRanges(file)[0]!.end)
    const future = encodeLine(BINDING, JSON.stringify({ kind: 'header', ...journalHeader(), journal_version: JOURNAL_VERSION + 1, leg: 1 }))
    writeFileSync(file, Buffer.concat([future, rest]))
    const pending = await expectRefused('UnknownJournalVersionError', file, undefined)
    expect(pending.refusal?.message).toContain(`journal_version ${JOURNAL_VERSION + 1}`)
    await temp.store.writeRun(makeRun())
    const before = temp.snapshot()
    expect((await onlyPending()).finished).toBe(true)
    await refusalOf(journal.dropPending(TENANT, SUITE, KEY), UnknownJournalVersionError)
    expect(temp.snapshot()).toEqual(before)
  })

  it('is recognised in a first line this format cannot verify (another layout altogether)', async () => {
    await writeJournal(journal, [LEG_1])
    const file = legFile(temp.root, 1)
    writeFileSync(file, `${JSON.stringify({ kind: 'header', journal_version: 7, leg: 1 })}\nwhatever comes next\n`)
    await expectRefused('UnknownJournalVersionError', file, undefined)
  })
})

describe('opening a leg', () => {
  it('exactly one of two opens of the same leg wins; the other is refused and the winner’s file is untouched', async () => {
    const [a, b] = await Promise.allSettled([
      journal.openJournal(journalHeader({ lease: { ...journalHeader().lease, pid: 1001 } }), 1),
      journal.openJournal(journalHeader({ lease: { ...journalHeader().lease, pid: 1002 } }), 1),
    ])
    const winners = [a, b].filter((r) => r.status === 'fulfilled')
    const losers = [a, b].filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    expect(winners).toHaveLength(1)
    expect(losers).toHaveLength(1)
    expect(losers[0]!.reason).toBeInstanceOf(JournalLegExistsError)
    expect(String(losers[0]!.reason.message)).toContain(`another process is resuming run ${KEY} (leg 1 exists`)
    const winnerPid = a.status === 'fulfilled' ? 1001 : 1002
    expect(readFileSync(legFile(temp.root, 1))).toEqual(
      Buffer.concat([
        encodeHeader(BINDING, { ...headerOnly(journalHeader({ lease: { ...journalHeader().lease, pid: winnerPid } })), leg: 1 }),
        encodeDeclared(BINDING, journalHeader().declared),
      ]),
    )
    await (winners[0] as PromiseFulfilledResult<Awaited<ReturnType<FileJournal['openJournal']>>>).value.close()
  })

  it("never shows another process's look at the journal a leg without its header: a sweep before each of the open's steps removes nothing", async () => {
    const notes: string[] = []
    const sweeper = new FileJournal({ root: temp.root, onSwept: (line) => notes.push(line) })
    const seen: string[] = []
    let opening = true
    const writer = new FileJournal({
      root: temp.root,
      fs: new FaultFs({
        // Between the open's steps, another process lists and reads the journal (as a starting shard
        // does); the guard's directory steps and closes run on the calling thread, so none is awaited there.
        beforeOp: (event) => {
          if (!opening || event.op === 'close' || (event.op === 'open' && ((event.flags ?? 0) & constants.O_DIRECTORY) !== 0)) return
          return sweeper.pending(TENANT, SUITE).then((found) => {
            for (const p of found) seen.push(`${event.op}: legs ${p.legs.join(',')}${p.refusal === undefined ? '' : ` refused ${p.refusal.name}`}`)
          })
        },
      }),
    })
    const leg = await writer.openJournal(journalHeader(), 1)
    opening = false
    await leg.append(LEG_1[0]!)
    await leg.close()
    expect(notes).toEqual([])
    expect(seen.length).toBeGreaterThan(0)
    expect(seen.every((line) => line.endsWith('legs 1'))).toBe(true)
    expect(readdirSync(join(temp.root, TENANT, 'runs', SUITE, '.pending'))).toEqual([`${KEY}.1.jsonl`])
    expect((await onlyPending()).done).toEqual(expectedDone([LEG_1[0]!]))
  })

  it("removes a leg's temp file left by a writer killed before the link, and keeps a live writer's", async () => {
    const live = spawn('sleep', ['60'], { stdio: 'ignore' })
    const dead = spawn('sleep', ['60'], { stdio: 'ignore' })
    try {
      const deadStart = processStartTime(dead.pid!)
      const exited = new Promise((resolve) => dead.on('exit', resolve))
      dead.kill('SIGKILL')
      await exited
      const leg2 = legFile(temp.root, 2)
      const dir = dirname(leg2)
      mkdirSync(dir, { recursive: true })
      const abandoned = tempNameOf(leg2, dead.pid!, deadStart)
      const kept = tempNameOf(leg2, live.pid!, processStartTime(live.pid!))
      for (const file of [abandoned, kept]) writeFileSync(file, 'half a header')
      const leg = await journal.openJournal(journalHeader(), 1)
      await leg.close()
      expect(readdirSync(dir).sort()).toEqual([basename(legFile(temp.root, 1)), basename(kept)].sort())
      expect((await onlyPending()).legs).toEqual([1])
    } finally {
      live.kill('SIGKILL')
      dead.kill('SIGKILL')
    }
  })

  it('refuses an unsafe tenant, suite or key before any I/O', async () => {
    for (const header of [journalHeader({ tenant: '../x' }), journalHeader({ suite: 'a/b' }), journalHeader({ created_at: '../../x' })]) {
      await refusalOf(journal.openJournal(header, 1), PathRefusedError)
    }
    expect(temp.snapshot().filter((e) => e.path.startsWith('project'))).toEqual([])
  })

  it('writes the .gitignore of a fresh store first, so a journal is ignored from its first byte', async () => {
    const leg = await journal.openJournal(journalHeader(), 1)
    await leg.close()
    expect(readFileSync(join(temp.root, '.gitignore'), 'utf8')).toBe('*/runs/\n*/removed/\n*/cache/\n.*.tmp\n')
  })

  it('serializes appends made at once, each record whole and in call order', async () => {
    const leg = await journal.openJournal(journalHeader(), 1)
    await Promise.all(LEG_1.map((p) => leg.append(p)))
    await leg.close()
    const ids = lines(legFile(temp.root, 1))
      .slice(3)
      .map((l) => (recordOf(l).case as { case_id: string }).case_id)
    expect(ids).toEqual(LEG_1.map((p) => p.result.case_id))
    expect((await onlyPending()).done).toEqual(expectedDone(LEG_1))
  })
})

/** nodeFsLayer whose nth write takes half its bytes and whose next write fails (or whose fsync fails). */
function failingFs(failAtWrite: number, mode: 'short-then-error' | 'fsync'): FsLayer {
  let writes = 0
  let failing = false
  return {
    ...nodeFsLayer,
    async write(handle, data, offset, length) {
      writes++
      if (mode === 'short-then-error' && failing) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })
      if (mode === 'short-then-error' && writes === failAtWrite) {
        failing = true
        return nodeFsLayer.write(handle, data, offset, Math.floor(length / 2))
      }
      if (mode === 'fsync' && writes === failAtWrite) failing = true
      return nodeFsLayer.write(handle, data, offset, length)
    },
    async fsync(handle) {
      if (mode === 'fsync' && failing) throw Object.assign(new Error('input/output error'), { code: 'EIO' })
      return nodeFsLayer.fsync(handle)
    },
  }
}

describe('a failed append', () => {
  it.each(['short-then-error', 'fsync'] as const)('(%s) stops the journal there, refuses later appends and keeps every earlier record', async (mode) => {
    const faulty = new FileJournal({ root: temp.root, fs: failingFs(5, mode) })
    const leg = await faulty.openJournal(journalHeader(), 1) // write 1: the .gitignore; 2: the header
    await leg.append(LEG_1[0]!) // 3: observed and case 0, one batch
    await leg.append(LEG_1[1]!) // 4: case 1
    const error = await refusalOf(leg.append(LEG_1[2]!), StoreWriteError)
    expect(error.message).toContain(legFile(temp.root, 1))
    expect(error.message).toContain(mode === 'fsync' ? 'EIO' : 'ENOSPC')
    const after = await refusalOf(leg.append(LEG_1[3]!), StoreWriteError)
    expect(after.message).toContain('takes no more records')
    await leg.close()
    expect((await onlyPending()).done).toEqual(expectedDone(LEG_1.slice(0, 2)))
    expect(readFileSync(legFile(temp.root, 1), 'utf8').endsWith('\n')).toBe(true)
  })
})

describe('completing and dropping', () => {
  it('complete() removes every leg of the run, not only its own, once the document is written', async () => {
    await writeJournal(journal)
    const leg = await journal.openJournal(journalHeader(), 3)
    await leg.append(LEG_2[0]!)
    await refusalOf(leg.complete(), RunNotFoundError)
    await temp.store.writeRun(makeRun())
    await leg.complete()
    await leg.close()
    expect(readdirSync(join(temp.root, TENANT, 'runs', SUITE, '.pending'))).toEqual([])
    expect(await journal.pending(TENANT, SUITE)).toEqual([])
  })

  it('a journal whose document exists is reported finished, and dropPending removes it', async () => {
    await writeJournal(journal)
    await refusalOf(journal.dropPending(TENANT, SUITE, KEY), RunNotFoundError)
    expect((await onlyPending()).legs).toEqual([1, 2])
    await temp.store.writeRun(makeRun())
    expect((await onlyPending()).finished).toBe(true)
    await journal.dropPending(TENANT, SUITE, KEY)
    expect(await journal.pending(TENANT, SUITE)).toEqual([])
  })

  it('listRuns and scanRuns see nothing of .pending', async () => {
    await writeJournal(journal)
    expect(await temp.store.listRuns(TENANT, SUITE)).toEqual({ tenant: TENANT, suite: SUITE, runs: [] })
    expect(await temp.store.scanRuns(TENANT, SUITE)).toEqual({ tenant: TENANT, suite: SUITE, runs: [], refused: [] })
    await temp.store.writeRun(makeRun())
    expect((await temp.store.listRuns(TENANT, SUITE)).runs.map((r) => r.key)).toEqual([KEY])
    expect((await temp.store.scanRuns(TENANT, SUITE)).refused).toEqual([])
  })

  it('listSuites names the suite directories of a tenant, nothing else', async () => {
    await writeJournal(journal)
    await temp.store.writeRun(makeRun({ suite: 'rivers' }))
    writeFileSync(join(temp.root, TENANT, 'runs', 'stray.json'), '{}')
    expect(await journal.listSuites(TENANT)).toEqual([SUITE, 'rivers'])
    expect(await journal.listSuites('nobody')).toEqual([])
  })
})

describe('what a record holds', () => {
  it('nothing of the answers when the run does not record responses, and exactly the document’s bytes when it does', async () => {
    const silent = judged(0)
    const recorded = { ...judged(1), input: { q: 'capital of France?' }, expected: 'Paris', samples: judged(1).samples.map((s) => ({ ...s, output: 'Paris' })) }
    const leg = await journal.openJournal(journalHeader(), 1)
    await leg.append(progress(silent, OBSERVED_1))
    await leg.append(progress(recorded, OBSERVED_1))
    await leg.close()
    const [first, second] = lines(legFile(temp.root, 1)).slice(3)
    expect(first).not.toMatch(/"(output|input|expected)"/)
    const doc = makeRun({ results: 2 })
    doc.results[1] = recorded
    expect(serializeRun(doc)).toContain(serializeCase(recorded))
    expect(second!.slice(9)).toBe(`{"kind":"case","run":"${KEY}","cause":null,"case":${serializeCase(recorded)}}`)
    expect((await onlyPending()).done.get(recorded.case_id)).toEqual(recorded)
  })

  it('an errored case keeps its cause', async () => {
    const leg = await journal.openJournal(journalHeader(), 1)
    await leg.append(progress(errored(4, 'scorer'), OBSERVED_1))
    await leg.close()
    expect((await onlyPending()).causes).toEqual(expectedCauses([progress(errored(4, 'scorer'), OBSERVED_1)]))
  })
})

describe('the format', () => {
  it('names legs <key>.<leg>.jsonl and reads only those names back', () => {
    expect(parseLegName(`${KEY}.12.jsonl`)).toEqual({ key: KEY, leg: 12 })
    for (const name of [`${KEY}.0.jsonl`, `${KEY}.012.jsonl`, `${KEY}.jsonl`, `.x.1.jsonl`, `${KEY}.1.json`]) expect(parseLegName(name)).toBeUndefined()
    expect(OBSERVED_2.judge_models).toEqual({ judge: 'j-2026-02' })
  })

  it('the portable CRC-32 is zlib’s', () => {
    const native = (zlib as unknown as { crc32: (d: Uint8Array) => number }).crc32
    for (const size of [0, 1, 7, 100, 4096]) {
      const data = randomBytes(size)
      expect(crc32Portable(data)).toBe(native(data))
    }
  })

  it('a checksum seeded with the binding’s CRC is the CRC of binding and body joined, on both paths', () => {
    const native = (zlib as unknown as { crc32: (d: Uint8Array, value?: number) => number }).crc32
    const binding = { tenant: 'acme', suite: 'capitals', key: KEY }
    const bindingBytes = Buffer.from(`acme/capitals/${KEY}\n`)
    for (const size of [0, 1, 9, 300, 70_000]) {
      const body = randomBytes(size)
      const joined = native(Buffer.concat([bindingBytes, body]))
      expect(checksumOf(binding, body)).toBe(joined)
      expect(crc32Portable(body, crc32Portable(bindingBytes))).toBe(joined)
      expect(checksumOf({ ...binding, key: `${KEY}x` }, body)).toBe(native(Buffer.concat([Buffer.from(`acme/capitals/${KEY}x\n`), body])))
    }
  })
})
