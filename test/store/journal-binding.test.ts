// What makes a journal its run's and its writer's: records bound to their run (a foreign or
// misshapen record is refused by name, never merged), the lease (a recycled pid is not the writer),
// "finished" meaning the run's own readable document, and a cases_digest refusal naming the cases.
import { spawn, type ChildProcess } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CorruptJournalError, LiveRunError, StoreWriteError, UnknownJournalVersionError } from '../../src/store/errors.js'
import { ResumeMismatchError } from '../../src/host/launch/errors.js'
import { RunPathOccupiedError } from '../../src/store/file/errors.js'
import { findPending, notePendingJournals } from '../../src/host/project/pending-journals.js'
import { assertResumable } from '../../src/host/launch/resume.js'
import { FileJournal } from '../../src/store/file/journal.js'
import { encodeCase } from '../../src/store/journal-format.js'
import type { Lease, Pending } from '../../src/store/journal.js'
import { bootId, processStartTime } from '../../src/store/live-writer.js'
import { keyFor } from '../../src/suite/keys.js'
import { DEFAULT_CONFIG_HASH, makeRun } from '../helpers/make-run.js'
import { refusalOf } from './contract.js'
import { journalHeader, judged, KEY, LEG_1, legFile, lineRanges, progress, OBSERVED_1, SUITE, TENANT, writeJournal } from './journal-fixtures.js'
import { makeTempStore, type TempStore } from './temp-store.js'

let temp: TempStore
let journal: FileJournal

beforeEach(() => {
  temp = makeTempStore()
  journal = new FileJournal({ root: temp.root })
})
afterEach(() => temp.cleanup())

const BINDING = { tenant: TENANT, suite: SUITE, key: KEY }

async function onlyPending(): Promise<Pending> {
  const all = await journal.pending(TENANT, SUITE)
  expect(all.map((p) => p.key)).toEqual([KEY])
  return all[0]!
}

async function expectCorrupt(file: string, line: number, says: string): Promise<void> {
  const before = temp.snapshot()
  const pending = await onlyPending()
  expect(pending.refusal?.name).toBe(CorruptJournalError.name)
  expect(pending.refusal?.message).toContain(`${file} line ${line} `)
  expect(pending.refusal?.message).toContain(says)
  expect(pending.done.size).toBe(0)
  expect(temp.snapshot()).toEqual(before)
}

describe('a record is bound to its run', () => {
  beforeEach(() => writeJournal(journal, [LEG_1]))

  it('a case record copied from another run’s journal (its checksum valid there) is refused by name, never merged', async () => {
    const otherAt = '2026-11-30T08:00:00.000001Z'
    const otherKey = keyFor(otherAt, DEFAULT_CONFIG_HASH)
    const other = await journal.openJournal(journalHeader({ created_at: otherAt }), 1)
    await other.append(progress(judged(12), OBSERVED_1, 12))
    await other.close()
    const otherFile = legFile(temp.root, 1, otherKey)
    const lastLine = lineRanges(otherFile).at(-1)!
    const copied = readFileSync(otherFile).subarray(lastLine.start, lastLine.end)
    const file = legFile(temp.root, 1)
    appendFileSync(file, copied)
    const all = await journal.pending(TENANT, SUITE)
    const mine = all.find((p) => p.key === KEY)!
    expect(mine.refusal?.name).toBe(CorruptJournalError.name)
    expect(mine.refusal?.message).toContain(`${file} line ${lineRanges(file).length} `)
    expect(mine.refusal?.message).toContain(`record of run ${otherKey}, not of run ${KEY}`)
    expect(mine.done.size).toBe(0)
    expect(all.find((p) => p.key === otherKey)?.done.size).toBe(1)
  })

  it('a case record with 2 samples in a run of 1 sample per case is refused', async () => {
    const file = legFile(temp.root, 1)
    const one = judged(12)
    appendFileSync(file, encodeCase(BINDING, { ...one, passed_samples: 2, samples: [one.samples[0]!, one.samples[0]!] }, null))
    await expectCorrupt(file, lineRanges(file).length, 'with 2 sample(s), and run')
  })

  it('a case record of a case the run does not declare is refused', async () => {
    const file = legFile(temp.root, 1)
    appendFileSync(file, encodeCase(BINDING, { ...judged(12), case_id: 'case-99999' }, null))
    await expectCorrupt(file, lineRanges(file).length, 'case "case-99999", which run')
  })
})

describe('the lease: a writer is live while its lease holds, and only then', () => {
  let sleeper: ChildProcess

  beforeEach(() => {
    sleeper = spawn('sleep', ['60'], { stdio: 'ignore' })
  })
  afterEach(() => {
    sleeper.kill('SIGKILL')
  })

  function leaseOf(pid: number, startTime: number | null): Lease {
    return { host: hostname(), boot: bootId(), pid, start_time: startTime }
  }

  async function legHeldBy(lease: Lease): Promise<void> {
    const leg = await journal.openJournal(journalHeader({ lease }), 1)
    await leg.append(LEG_1[0]!)
    await leg.close()
  }

  it('a live process whose start time is not the lease’s (a recycled pid) is not the writer: resume and delete go ahead', async () => {
    const pid = sleeper.pid!
    const started = processStartTime(pid)
    expect(started).not.toBeNull()
    await legHeldBy(leaseOf(pid, started! + 1))
    const pending = await onlyPending()
    expect(pending.leases.map((l) => l.live)).toEqual([false])
    await expect(findPending(temp.store, TENANT, SUITE, KEY)).resolves.toMatchObject({ key: KEY })
    const removal = await temp.store.deleteRun(TENANT, SUITE, KEY)
    expect(removal.run.legs).toBe(1)
    expect(removal.run.created_at).toBe(journalHeader().created_at)
  })

  it('the same pid and start time is the writer: resume and delete are refused, naming host, pid and since when', async () => {
    const pid = sleeper.pid!
    await legHeldBy(leaseOf(pid, processStartTime(pid)))
    expect((await onlyPending()).leases.map((l) => l.live)).toEqual([true])
    const before = temp.snapshot()
    const resume = await refusalOf(findPending(temp.store, TENANT, SUITE, KEY), LiveRunError)
    expect(resume.message).toContain(`process ${pid} on host ${hostname()} (leg 1, writing since ${journalHeader().started_at})`)
    expect(resume.next).toContain(`kill ${pid}`)
    const deleting = await refusalOf(temp.store.deleteRun(TENANT, SUITE, KEY), LiveRunError)
    expect(deleting.message).toContain(`process ${pid} on host ${hostname()}`)
    expect(temp.snapshot()).toEqual(before)
  })

  it('a lease of another boot of this host never blocks', async () => {
    const pid = sleeper.pid!
    await legHeldBy({ ...leaseOf(pid, processStartTime(pid)), boot: '00000000-0000-0000-0000-000000000000' })
    expect((await onlyPending()).leases.map((l) => l.live)).toEqual([false])
  })
})

describe('finished means a readable document of the same run; anything else at its path is named and the journal kept', () => {
  const document = () => join(temp.root, TENANT, 'runs', SUITE, `${KEY}.json`)
  const plants: [string, () => void][] = [
    ['an empty file', () => writeFileSync(document(), '')],
    ['a torn document', () => writeFileSync(document(), '{"not":"a run"')],
    ['a directory', () => mkdirSync(document())],
    ['another run’s valid document', () => writeFileSync(document(), JSON.stringify(makeRun({ createdAt: '2026-11-30T08:00:00.000001Z' })))],
  ]

  it.each(plants)('%s: a plain run names it and keeps every leg; dropPending refuses', async (_what, plant) => {
    await writeJournal(journal)
    plant()
    const legs = [legFile(temp.root, 1), legFile(temp.root, 2)].map((f) => readFileSync(f))
    const pending = await onlyPending()
    expect(pending.finished).toBe(false)
    expect(pending.refusal?.name).toBe(RunPathOccupiedError.name)
    expect(pending.refusal?.message).toContain(document())
    const said: string[] = []
    await notePendingJournals(temp.store, TENANT, SUITE, (line) => said.push(line))
    expect(said.join('\n')).toContain('RunPathOccupiedError')
    expect(said.join('\n')).toContain(document())
    await refusalOf(journal.dropPending(TENANT, SUITE, KEY), RunPathOccupiedError)
    await expect(findPending(temp.store, TENANT, SUITE, KEY)).rejects.toMatchObject({ name: RunPathOccupiedError.name })
    expect([legFile(temp.root, 1), legFile(temp.root, 2)].map((f) => readFileSync(f))).toEqual(legs)
    expect(existsSync(document())).toBe(true)
  })

  it('the run’s own document: finished, and a plain run removes the leftover legs', async () => {
    await writeJournal(journal)
    await temp.store.writeRun(makeRun())
    expect((await onlyPending()).finished).toBe(true)
    await notePendingJournals(temp.store, TENANT, SUITE, () => undefined)
    expect(existsSync(legFile(temp.root, 1))).toBe(false)
    expect(existsSync(legFile(temp.root, 2))).toBe(false)
  })
})

describe('a cases_digest refusal names the cases that changed', () => {
  it('added, removed and changed ids', async () => {
    await writeJournal(journal, [LEG_1])
    const pending = await onlyPending()
    const now = journalHeader()
    const digests = { ...now.declared.digests }
    delete digests['case-00004']
    digests['case-00007'] = 'ffffffffffff'
    digests['case-new'] = '000000000000'
    const error = (() => {
      try {
        assertResumable(pending, { ...now, cases_digest: 'moved', declared: { samples: 1, digests } })
      } catch (caught) {
        return caught
      }
      return undefined
    })()
    expect(error).toBeInstanceOf(ResumeMismatchError)
    const message = (error as ResumeMismatchError).message
    expect(message).toContain('cases_digest differs')
    expect(message).toContain('added "case-new"')
    expect(message).toContain('removed "case-00004"')
    expect(message).toContain('changed "case-00007"')
  })
})

describe('legs across the upgrade and under a sweep', () => {
  it('a writer whose leg was removed under it stops at its next record instead of journaling into nothing', async () => {
    const leg = await journal.openJournal(journalHeader(), 1)
    await leg.append(LEG_1[0]!)
    unlinkSync(legFile(temp.root, 1))
    const error = await refusalOf(leg.append(LEG_1[1]!), StoreWriteError)
    expect(error.message).toContain('was removed while it was being written')
    await leg.close()
  })

  it('a journal_version 1 leg is named and left alone; a delete of its run still records its created_at', async () => {
    mkdirSync(join(temp.root, TENANT, 'runs', SUITE, '.pending'), { recursive: true })
    const { declared: _declared, lease, ...header } = journalHeader()
    const json = JSON.stringify({ kind: 'header', ...header, journal_version: 1, leg: 1, host: lease.host, pid: 999999 })
    const crc = (await import('../../src/store/journal-format.js')).crc32(Buffer.from(json)).toString(16).padStart(8, '0')
    writeFileSync(legFile(temp.root, 1), `${crc} ${json}\n`)
    const pending = await onlyPending()
    expect(pending.refusal?.name).toBe(UnknownJournalVersionError.name)
    expect(existsSync(legFile(temp.root, 1))).toBe(true)
    const removal = await temp.store.deleteRun(TENANT, SUITE, KEY)
    expect(removal.run.legs).toBe(1)
    expect(removal.run.created_at).toBe(header.created_at)
  })
})
