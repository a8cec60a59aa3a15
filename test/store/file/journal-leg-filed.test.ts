// A leg removed under its writer: an error when nobody filed the run (its next records would be lost),
// but not when another shard filed the run from every leg and then removed them all — the case being
// appended was read into that document, so the append holds (the shard race of issue 24's note).
import { unlinkSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { StoreWriteError } from '../../../src/store/errors.js'
import { FileJournal } from '../../../src/store/file/journal.js'
import { openStore } from '../../../src/store/open-store.js'
import { makeRun } from '../../helpers/make-run.js'
import { journalHeader, judged, legFile, OBSERVED_1, progress } from '../journal-fixtures.js'
import { makeTempStore, type TempStore } from '../temp-store.js'

let temp: TempStore
let journal: FileJournal

beforeEach(() => {
  temp = makeTempStore()
  journal = new FileJournal({ root: temp.root })
})
afterEach(() => temp.cleanup())

describe('a leg removed while it is written', () => {
  it('fails the append when the run has no document: the leg would journal nothing more', async () => {
    const leg = await journal.openJournal(journalHeader(), 1)
    await leg.append(progress(judged(0), OBSERVED_1, 0))
    unlinkSync(legFile(temp.root, 1))
    await expect(leg.append(progress(judged(1), OBSERVED_1, 1))).rejects.toBeInstanceOf(StoreWriteError)
    await leg.close()
  })

  it('holds the append when another writer filed the run and removed the legs', async () => {
    const leg = await journal.openJournal(journalHeader(), 1)
    await leg.append(progress(judged(0), OBSERVED_1, 0))
    const store = openStore({ store: temp.root })
    await store.writeRun(makeRun())
    unlinkSync(legFile(temp.root, 1))
    await expect(leg.append(progress(judged(1), OBSERVED_1, 1))).resolves.toBeUndefined()
    await expect(leg.complete()).resolves.toBeUndefined()
    await store.close()
  })
})
