// A survey of a journal's cases (a merge's checks, ADR 0562) reads each case record's id without
// parsing the rest of it. The id it reads is the one the record holds, for every id JSON can carry;
// any other line, or a line whose bytes changed, gives none and is read whole. Folded for a survey,
// legs give the refusals and the cases that folding them whole gives, except a record that verifies
// but is out of shape, which only the whole reading (the merge's worker) refuses.
import { describe, expect, it } from 'vitest'
import type { CaseResult, ErrorCause } from '../../../src/document/schema.js'
import { seededRandom } from '../../../src/stats/prng.js'
import { encodeCase, encodeDeclared, encodeHeader, encodeLine, encodeObserved, verifiedCaseId, type RunBinding } from '../../../src/store/journal-format.js'
import { JournalPlanner, type LegBytes } from '../../../src/store/journal-planner.js'
import { Gen } from '../../helpers/shape-fuzz.js'
import { DECLARED, errored, journalHeader, judged, KEY, OBSERVED_1, OBSERVED_2, SUITE, TENANT } from '../../store/journal-fixtures.js'

const BINDING: RunBinding = { tenant: TENANT, suite: SUITE, key: KEY }
const CAUSES: (ErrorCause | null)[] = [null, 'target', 'scorer', 'mapper']

function idOf(line: Buffer, binding = BINDING): string | undefined {
  return verifiedCaseId(line, 0, line.length - 1, binding)
}

/** Ids JSON carries in every form: escapes, quotes, backslashes, non-ASCII, lone surrogates, control characters. */
function anyId(g: Gen): string {
  const pieces = ['a', 'case-00001', '"', '\\', '\\"', '","verdict":"', 'naïve ✓', '\u0000', '\n', '\ud800', '\udfff', '😀', ' ', '}', '{"case_id":"x"}', '']
  return Array.from({ length: g.int(5) }, () => g.pick(pieces)).join('')
}

describe('verifiedCaseId', () => {
  it('reads the id of every case record encodeCase writes, whatever the id and the cause', () => {
    const g = new Gen(seededRandom(562))
    for (let i = 0; i < 3000; i++) {
      const id = anyId(g)
      const cause = g.pick(CAUSES)
      const result: CaseResult = cause === null ? { ...judged(i % 40), case_id: id } : { ...errored(i % 40, cause), case_id: id }
      expect(idOf(encodeCase(BINDING, result, cause))).toBe(id)
    }
  })

  it('gives no id for the other records, for another run, or for a case record any byte of which changed', () => {
    for (const line of [
      encodeHeader(BINDING, { ...journalHeader(), leg: 1 }),
      encodeDeclared(BINDING, DECLARED),
      encodeObserved(BINDING, OBSERVED_2),
      encodeLine(BINDING, JSON.stringify({ kind: 'case', run: KEY, cause: 'elsewhere', case: judged(0) })),
      encodeLine(BINDING, JSON.stringify({ kind: 'case', run: KEY, case: judged(0), cause: null })),
    ]) {
      expect(idOf(line)).toBeUndefined()
    }
    const line = encodeCase(BINDING, judged(5), null)
    expect(idOf(line)).toBe(judged(5).case_id)
    expect(idOf(line, { ...BINDING, key: `${KEY.slice(0, -1)}0` })).toBeUndefined()
    expect(idOf(line, { ...BINDING, suite: 'rivers' })).toBeUndefined()
    for (let at = 0; at < line.length - 1; at++) {
      const changed = Buffer.from(line)
      changed[at] = changed[at] === 0x61 ? 0x62 : 0x61
      expect(idOf(changed), `byte ${at} changed`).toBeUndefined()
    }
  })
})

/** A leg's bytes as a writer leaves them: header, declared cases, an observed record, case records. */
function legOf(leg: number, records: { result: CaseResult; cause: ErrorCause | null }[], extra: Buffer[] = []): LegBytes {
  const lines = [encodeHeader(BINDING, { ...journalHeader(), leg }), encodeDeclared(BINDING, DECLARED), encodeObserved(BINDING, OBSERVED_1)]
  for (const { result, cause } of records) lines.push(encodeCase(BINDING, result, cause))
  return { leg, file: `leg ${leg}`, bytes: Buffer.concat([...lines, ...extra]) }
}

function fold(legs: LegBytes[], casesOnly: boolean): { ids: string[] } | { refused: string } {
  const planner = new JournalPlanner(BINDING, undefined, casesOnly)
  try {
    planner.addLegs(legs)
  } catch (error) {
    return { refused: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }
  }
  return { ids: [...(casesOnly ? planner.caseIds : planner.done.keys())].sort() }
}

describe('a survey of the cases folds legs as a whole reading does', () => {
  it('the same cases, or the same refusal, for legs damaged at random', () => {
    const random = seededRandom(5620)
    const g = new Gen(random)
    let refused = 0
    for (let round = 0; round < 400; round++) {
      const records = Array.from({ length: 1 + g.int(12) }, () => {
        const i = g.int(30)
        const cause = g.pick(CAUSES)
        return { result: cause === null ? judged(i) : errored(i, cause), cause }
      })
      const legs = [legOf(1, records.slice(0, 6)), legOf(2, records.slice(6))]
      const leg = legs[g.int(2)]!
      const bytes = Buffer.from(leg.bytes)
      const damage = g.int(6)
      if (damage === 0) {
        const at = g.int(bytes.length)
        bytes[at] = bytes[at]! ^ (1 << g.int(7))
      }
      if (damage === 1) leg.bytes = bytes.subarray(0, g.int(bytes.length))
      else if (damage === 2) leg.bytes = Buffer.concat([bytes, encodeCase(BINDING, { ...judged(1), case_id: 'not-declared' }, null)])
      else if (damage === 3) leg.bytes = Buffer.concat([bytes, encodeCase({ ...BINDING, key: 'another' }, judged(2), null)])
      else if (damage === 4) leg.bytes = Buffer.concat([bytes, encodeHeader(BINDING, { ...journalHeader(), leg: leg.leg })])
      else leg.bytes = bytes
      const whole = fold(legs, false)
      expect(fold(legs, true)).toEqual(whole)
      if ('refused' in whole) refused += 1
    }
    expect(refused).toBeGreaterThan(100)
  })

  it('a record that verifies but is out of shape is refused by the whole reading alone', () => {
    const outOfShape = encodeLine(BINDING, JSON.stringify({ kind: 'case', run: KEY, cause: null, case: { case_id: judged(4).case_id, verdict: 'maybe' } }))
    const tooFew = encodeCase(BINDING, { ...judged(6), samples: [] }, null)
    for (const line of [outOfShape, tooFew]) {
      const legs = [legOf(1, [{ result: judged(1), cause: null }], [line])]
      expect(fold(legs, true)).toEqual({ ids: [judged(1).case_id, JSON.parse(line.subarray(9).toString()).case.case_id].sort() })
      expect(fold(legs, false)).toMatchObject({ refused: expect.stringContaining('CorruptJournalError') })
    }
  })
})
