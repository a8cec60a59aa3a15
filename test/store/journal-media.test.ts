// The journal against the real world: two processes racing for one leg, and a disk that fills up in
// the middle of a run (a 64 KiB tmpfs; mounting needs root, and without it these tests fail).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StoreWriteError } from '../../src/store/errors.js'
import { FileJournal } from '../../src/store/file/journal.js'
import { nodeFsLayer } from '../../src/store/file/fs-layer.js'
import { encodeDeclared, encodeHeader } from '../../src/store/journal-format.js'
import type { CaseProgress } from '../../src/document/case-progress.js'
import { refusalOf } from './contract.js'
import { compileJournalForChildren, type ChildOpen, type JournalChildren } from './journal-child.js'
import { expectedDone, journalHeader, judged, KEY, legFile, OBSERVED_1, progress, SUITE, TENANT } from './journal-fixtures.js'

let base: string
const mounted: string[] = []

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'digline-journal-media-'))
})
afterAll(() => {
  for (const dir of mounted.reverse()) execFileSync('umount', [dir])
  rmSync(base, { recursive: true, force: true })
})

describe('two processes open the same leg at once', () => {
  let children: JournalChildren
  beforeAll(() => {
    children = compileJournalForChildren()
  })
  afterAll(() => children.cleanup())

  it('exactly one wins each leg; the other is refused by name and the winner’s file is untouched', async () => {
    const root = join(base, 'race', '.digline')
    const go = join(base, 'race-go')
    const legs = [1, 2, 3, 4]
    const header = journalHeader()
    const racing = legs.flatMap((leg) => [children.open(root, header, leg, go), children.open(root, header, leg, go)])
    const deadline = Date.now() + 60_000
    while (readdirSync(base).filter((n) => n.startsWith('race-go.') && n.endsWith('.ready')).length < racing.length) {
      if (Date.now() > deadline) throw new Error('the children never became ready')
      await new Promise((r) => setTimeout(r, 5))
    }
    writeFileSync(go, '')
    const results: ChildOpen[] = await Promise.all(racing)
    for (const [i, leg] of legs.entries()) {
      const pair = results.slice(2 * i, 2 * i + 2)
      const winners = pair.filter((r) => r.ok)
      const losers = pair.filter((r) => !r.ok)
      expect(winners, `leg ${leg}`).toHaveLength(1)
      expect(losers[0]?.name, `leg ${leg}`).toBe('JournalLegExistsError')
      expect(losers[0]?.message).toContain(`another process is resuming run ${KEY} (leg ${leg} exists`)
      const { declared, ...fields } = header
      const binding = { tenant: header.tenant, suite: header.suite, key: KEY }
      expect(readFileSync(legFile(root, leg))).toEqual(
        Buffer.concat([encodeHeader(binding, { ...fields, lease: { ...fields.lease, pid: winners[0]!.pid, start_time: null }, leg }), encodeDeclared(binding, declared)]),
      )
    }
  })
})

function mountTmpfs(name: string): string {
  const dir = join(base, name)
  mkdirSync(dir)
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir])
  mounted.push(dir)
  return dir
}

describe('a disk that fills up mid-run (64 KiB tmpfs)', () => {
  it.each([
    ['the partial record is cut back off', false],
    ['the partial record stays (ftruncate fails too) and is read as a torn tail', true],
  ])('fails with StoreWriteError ENOSPC, refuses later appends, and every earlier record reads back: %s', async (_, truncateFails) => {
    const mnt = mountTmpfs(truncateFails ? 'full-torn' : 'full-cut')
    const fs = truncateFails ? { ...nodeFsLayer, ftruncate: () => Promise.reject(Object.assign(new Error('no space'), { code: 'ENOSPC' })) } : nodeFsLayer
    const root = join(mnt, '.digline')
    const journal = new FileJournal({ root, fs })
    const leg = await journal.openJournal(journalHeader(), 1)
    const appended: CaseProgress[] = []
    let failure: StoreWriteError | undefined
    for (let i = 0; i < 100 && failure === undefined; i++) {
      const next = progress(judged(i, 1500), OBSERVED_1, i)
      try {
        await leg.append(next)
        appended.push(next)
      } catch (error) {
        failure = error as StoreWriteError
      }
    }
    expect(failure).toBeInstanceOf(StoreWriteError)
    expect(failure!.errno).toBe('ENOSPC')
    expect(failure!.message).toContain(legFile(root, 1))
    expect(failure!.message).toContain('next: free space')
    expect(appended.length).toBeGreaterThan(10)

    const later = await refusalOf(leg.append(progress(judged(0), OBSERVED_1)), StoreWriteError)
    expect(later.message).toContain('takes no more records')
    await leg.close()

    const bytes = readFileSync(legFile(root, 1))
    const fragment = bytes.subarray(bytes.lastIndexOf(0x0a) + 1)
    expect(fragment.length > 0).toBe(truncateFails)
    const [pending] = await journal.pending(TENANT, SUITE)
    expect(pending?.refusal).toBeUndefined()
    expect(pending?.done).toEqual(expectedDone(appended))
  })
})
