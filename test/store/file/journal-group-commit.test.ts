// Group commit on a real filesystem: appends that arrive together share one write and one fsync,
// each resolves only after the fsync that covers its bytes, the bytes are those of appends made one
// at a time, and a failed batch fails every append in it and is cut back off the leg. An append made
// alone (no other case being asked) is written at once, its fsync waited for on the calling thread.
import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { StoreWriteError } from '../../../src/store/errors.js'
import { FileJournal } from '../../../src/store/file/journal.js'
import { nodeFsLayer, type FsLayer } from '../../../src/store/file/fs-layer.js'
import type { CaseProgress } from '../../../src/document/case-progress.js'
import { expectedDone, inOneTurn, journalHeader, judged, LEG_1, LEG_2, legFile, OBSERVED_1, progress, SUITE, TENANT, writeJournal } from '../journal-fixtures.js'
import { makeTempStore, type TempStore } from '../temp-store.js'

type Op = 'write' | 'fsync' | 'fstat' | 'ftruncate'

/** nodeFsLayer that logs the handle operations on journal legs, and can hold an fsync until released or fail one. */
class CountingFs {
  readonly events: string[] = []
  /** Each fsync's onCallingThread, in order. */
  readonly threads: boolean[] = []
  private held: { release: () => void }[] = []
  hold = false
  failWriteAt: number | undefined
  private diskFull = false
  failFsyncAt: number | undefined
  private counts: Record<Op, number> = { write: 0, fsync: 0, fstat: 0, ftruncate: 0 }

  count(op: Op): number {
    return this.counts[op]
  }

  reset(): void {
    this.counts = { write: 0, fsync: 0, fstat: 0, ftruncate: 0 }
    this.events.length = 0
    this.threads.length = 0
  }

  /** Lets the oldest held fsync proceed. */
  release(): void {
    this.held.shift()?.release()
  }

  get waiting(): number {
    return this.held.length
  }

  readonly layer: FsLayer = {
    ...nodeFsLayer,
    write: async (handle, data, offset, length) => {
      const n = ++this.counts.write
      if (this.diskFull) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })
      if (this.failWriteAt !== n) return nodeFsLayer.write(handle, data, offset, length)
      // A short write, then a disk that stays full.
      this.diskFull = true
      return nodeFsLayer.write(handle, data, offset, Math.floor(length / 2))
    },
    fsync: async (handle, onCallingThread = false) => {
      const n = ++this.counts.fsync
      this.threads.push(onCallingThread)
      if (this.hold) await new Promise<void>((release) => this.held.push({ release }))
      if (this.failFsyncAt === n) throw Object.assign(new Error('input/output error'), { code: 'EIO' })
      await nodeFsLayer.fsync(handle, onCallingThread)
      this.events.push(`fsync ${n}`)
    },
    fstat: (handle) => {
      this.counts.fstat++
      return nodeFsLayer.fstat(handle)
    },
    ftruncate: (handle, length) => {
      this.counts.ftruncate++
      return nodeFsLayer.ftruncate(handle, length)
    },
  }
}

const CASES: CaseProgress[] = Array.from({ length: 32 }, (_, i) => progress(judged(i), OBSERVED_1, i))

let temp: TempStore
let counting: CountingFs
let journal: FileJournal

beforeEach(() => {
  temp = makeTempStore()
  counting = new CountingFs()
  journal = new FileJournal({ root: temp.root, fs: counting.layer })
})
afterEach(() => temp.cleanup())

const tick = () => new Promise((resolve) => setTimeout(resolve, 20))

async function settled(promises: Promise<void>[]): Promise<PromiseSettledResult<void>[]> {
  return Promise.all(
    promises.map((p) =>
      p.then(
        () => ({ status: 'fulfilled' as const, value: undefined }),
        (reason: unknown) => ({ status: 'rejected' as const, reason }),
      ),
    ),
  )
}

describe('appends made together', () => {
  it('32 appends at once need one write, one fsync and one nlink check, not 32', async () => {
    const leg = await journal.openJournal(journalHeader(), 1)
    counting.reset()
    await Promise.all(CASES.map((p) => leg.append(p)))
    await leg.close()
    expect(counting.count('fsync')).toBe(1)
    expect(counting.count('write')).toBe(1)
    expect(counting.count('fstat')).toBe(1)
    expect((await journal.pending(TENANT, SUITE))[0]!.done).toEqual(expectedDone(CASES))
  })

  it('once appends have overlapped, appends made from separate callbacks in one turn of the event loop share one write and one fsync', async () => {
    const leg = await journal.openJournal(journalHeader(), 1)
    await Promise.all(CASES.slice(8, 10).map((p) => leg.append(p)))
    counting.reset()
    const appended = await inOneTurn(8, (i) => leg.append(CASES[i]!))
    await Promise.all(appended)
    await leg.close()
    expect(counting.count('fsync')).toBe(1)
    expect(counting.count('write')).toBe(1)
    expect([...(await journal.pending(TENANT, SUITE))[0]!.done.keys()]).toEqual([...CASES.slice(8, 10), ...CASES.slice(0, 8)].map((p) => p.result.case_id))
  })

  it('a leg whose appends come one at a time writes each in the turn it came, without waiting for the end of it', async () => {
    const leg = await journal.openJournal(journalHeader(), 1)
    for (const p of CASES.slice(0, 3)) await leg.append(p)
    counting.reset()
    let writesWhenTheTurnEnded: number | undefined
    setImmediate(() => (writesWhenTheTurnEnded = counting.count('write')))
    await leg.append(CASES[3]!)
    await leg.close()
    expect(writesWhenTheTurnEnded).toBe(1)
  })

  it('an append made alone is written in the turn it came and fsynced on the calling thread, even once appends have overlapped', async () => {
    const leg = await journal.openJournal(journalHeader(), 1)
    await Promise.all(CASES.slice(0, 2).map((p) => leg.append(p)))
    counting.reset()
    let writesWhenTheTurnEnded: number | undefined
    setImmediate(() => (writesWhenTheTurnEnded = counting.count('write')))
    await leg.append(CASES[2]!, true)
    await leg.append(CASES[3]!, true)
    await Promise.all(CASES.slice(4, 6).map((p) => leg.append(p)))
    await leg.close()
    // Both were written (and fsynced) before the turn ended: neither waited for its end.
    expect(writesWhenTheTurnEnded).toBe(2)
    expect(counting.threads).toEqual([true, true, false])
    expect((await journal.pending(TENANT, SUITE))[0]!.done).toEqual(expectedDone(CASES.slice(0, 6)))
  })

  it('an append made alone while a batch is on the disk waits for it, then goes to the thread pool like any group commit', async () => {
    const leg = await journal.openJournal(journalHeader(), 1)
    counting.reset()
    counting.hold = true
    const first = leg.append(CASES[0]!)
    await tick()
    expect(counting.waiting).toBe(1)
    const alone = leg.append(CASES[1]!, true)
    counting.release()
    await first
    await tick()
    counting.release()
    await alone
    await leg.close()
    expect(counting.threads).toEqual([false, false])
    expect((await journal.pending(TENANT, SUITE))[0]!.done).toEqual(expectedDone(CASES.slice(0, 2)))
  })

  it('a batch is written while the suite runs on fake timers (they replace the global ones, not the journal’s)', async () => {
    const leg = await journal.openJournal(journalHeader(), 1)
    vi.useFakeTimers({ toFake: ['setImmediate', 'setTimeout', 'setInterval'] })
    try {
      await Promise.all(CASES.slice(0, 2).map((p) => leg.append(p)))
    } finally {
      vi.useRealTimers()
    }
    await leg.close()
    expect((await journal.pending(TENANT, SUITE))[0]!.done).toEqual(expectedDone(CASES.slice(0, 2)))
  })

  it('appends that arrive while a batch is being fsynced wait for the fsync that covers them, and share it', async () => {
    const leg = await journal.openJournal(journalHeader(), 1)
    counting.reset()
    counting.hold = true
    const resolved: string[] = []
    const track = (p: CaseProgress) =>
      leg.append(p).then(() => {
        resolved.push(p.result.case_id)
        counting.events.push(`resolved ${p.result.case_id}`)
      })
    const first = track(CASES[0]!)
    await tick()
    expect(counting.waiting).toBe(1)
    // 31 slots finish while the first record's fsync is in flight
    const rest = CASES.slice(1).map(track)
    await tick()
    expect(resolved).toEqual([])
    counting.release()
    await first
    await tick()
    expect(counting.waiting).toBe(1)
    expect(resolved).toEqual([CASES[0]!.result.case_id])
    counting.release()
    await Promise.all(rest)
    await leg.close()
    expect(counting.count('fsync')).toBe(2)
    expect(counting.count('write')).toBe(2)
    expect(counting.count('fstat')).toBe(2)
    // every append resolved after the fsync of its batch returned, never before
    expect(counting.events).toEqual(['fsync 1', `resolved ${CASES[0]!.result.case_id}`, 'fsync 2', ...CASES.slice(1).map((p) => `resolved ${p.result.case_id}`)])
  })

  it('leave the bytes on disk identical to the same appends made one at a time (observed records included)', async () => {
    const sequential = makeTempStore()
    try {
      await writeJournal(new FileJournal({ root: sequential.root }))
      for (const [i, records] of [LEG_1, LEG_2].entries()) {
        const leg = await journal.openJournal(journalHeader({ started_at: `2026-11-29T22:4${i}:00.000001Z` }), i + 1)
        await Promise.all(records.map((p) => leg.append(p)))
        await leg.close()
      }
      for (const n of [1, 2]) expect(readFileSync(legFile(temp.root, n)).equals(readFileSync(legFile(sequential.root, n))), `leg ${n}`).toBe(true)
      expect(counting.count('fsync')).toBeLessThan(LEG_1.length + LEG_2.length)
    } finally {
      sequential.cleanup()
    }
  })

  it('an append made after close() is refused even while an earlier batch is still gathering', async () => {
    const leg = await journal.openJournal(journalHeader(), 1)
    const before = leg.append(CASES[0]!)
    const closed = leg.close()
    const after = leg.append(CASES[1]!)
    await before
    await closed
    await expect(after).rejects.toThrow(`case ${CASES[1]!.result.case_id} was not journaled`)
    expect([...(await journal.pending(TENANT, SUITE))[0]!.done.keys()]).toEqual([CASES[0]!.result.case_id])
  })
})

describe('a failed batch', () => {
  it.each(['short write, then ENOSPC', 'fsync EIO'] as const)(
    '(%s) fails every append in it with the same error, is cut back off the leg, and the leg takes nothing more',
    async (mode) => {
      const leg = await journal.openJournal(journalHeader(), 1)
      await leg.append(CASES[0]!)
      await leg.append(CASES[1]!)
      const good = readFileSync(legFile(temp.root, 1))
      counting.hold = true
      if (mode === 'fsync EIO') counting.failFsyncAt = counting.count('fsync') + 1
      else counting.failWriteAt = counting.count('write') + 1
      const batch = CASES.slice(2, 12).map((p) => leg.append(p))
      await tick()
      // while that batch is in flight, more slots finish: they go to the next batch, which is refused
      const later = CASES.slice(12, 16).map((p) => leg.append(p))
      counting.hold = false
      counting.release()
      const outcomes = await settled(batch)
      const errors = outcomes.map((o) => (o.status === 'rejected' ? o.reason : undefined))
      expect(errors[0]).toBeInstanceOf(StoreWriteError)
      for (const error of errors) expect(error).toBe(errors[0])
      const failure = errors[0] as StoreWriteError
      expect(failure.message).toContain(legFile(temp.root, 1))
      expect(failure.message).toContain(mode === 'fsync EIO' ? 'EIO' : 'ENOSPC')
      expect(failure.message).toContain('it takes no more records')
      for (const [i, outcome] of (await settled(later)).entries()) {
        expect(outcome.status).toBe('rejected')
        const refusal = (outcome as PromiseRejectedResult).reason as StoreWriteError
        expect(refusal).toBeInstanceOf(StoreWriteError)
        expect(refusal.message).toContain(
          `refused to append case ${CASES[12 + i]!.result.case_id} to the journal leg ${legFile(temp.root, 1)}: an earlier append failed with ${failure.errno}`,
        )
      }
      await expect(leg.append(CASES[20]!)).rejects.toThrow('takes no more records')
      await leg.close()
      expect(counting.count('ftruncate')).toBe(1)
      expect(readFileSync(legFile(temp.root, 1)).equals(good)).toBe(true)
      expect((await journal.pending(TENANT, SUITE))[0]!.done).toEqual(expectedDone(CASES.slice(0, 2)))
    },
  )
})
