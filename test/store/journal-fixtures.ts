// A real journal for store tests: a header, observed identities and case results built by hand,
// written through FileJournal in two legs, and the state a reader must rebuild from them.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { CaseResult, ErrorCause, Observed } from '../../src/document/schema.js'
import type { CaseProgress } from '../../src/document/case-progress.js'
import type { FileJournal } from '../../src/store/file/journal.js'
import { JOURNAL_VERSION, type JournalOpening } from '../../src/store/journal.js'
import { leaseOfThisProcess } from '../../src/store/live-writer.js'
import { DEFAULT_CONFIG_HASH, DEFAULT_CREATED_AT, keyOf, makeRun } from '../helpers/make-run.js'

export const TENANT = 'acme'
export const SUITE = 'capitals'
export const KEY = keyOf(makeRun())

/** The cases the fixtures' run declares: case-00000 … case-00199, one sample each (as makeRun builds them). */
export const DECLARED = {
  samples: 1,
  digests: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`case-${String(i).padStart(5, '0')}`, `d${String(i).padStart(11, '0')}`])),
}

export function journalHeader(overrides: Partial<JournalOpening> = {}): JournalOpening {
  return {
    journal_version: JOURNAL_VERSION,
    created_at: DEFAULT_CREATED_AT,
    started_at: '2026-11-29T22:40:00.000001Z',
    digline_version: '0.1.0',
    tenant: TENANT,
    environment: 'local',
    suite: SUITE,
    config_hash: DEFAULT_CONFIG_HASH,
    cases_digest: 'c0ffee00c0ffee00',
    artifacts: { 'prompts/capital.txt': 'ab12' },
    target_config: { model: 'geo-v1', temperature: 0 },
    judge_config: { scorers: [{ name: 'exact', config: {}, pass_at: 1 }] },
    record_responses: false,
    git_commit: null,
    lease: leaseOfThisProcess(),
    declared: DECLARED,
    ...overrides,
  }
}

export function judged(index: number, reasonLength = 0): CaseResult {
  return makeRun({ results: index + 1, reasonLength }).results[index]!
}

export function errored(index: number, cause: ErrorCause): CaseResult {
  return {
    case_id: judged(index).case_id,
    verdict: 'error',
    score: null,
    passed_samples: 0,
    reason: null,
    error: { cause, message: `${cause} raised on case ${index}` },
    samples: [],
  }
}

export const OBSERVED_1: Observed = { target_model: 'geo-v1-2026-01', judge_models: {} }
export const OBSERVED_2: Observed = { target_model: 'geo-v1-2026-01', judge_models: { judge: 'j-2026-02' } }

export function progress(result: CaseResult, observed: Observed, index = 0): CaseProgress {
  return { result, cause: result.error?.cause ?? null, observed, index }
}

/**
 * Leg 1: cases 0–11 (3 errors at the target, 7 at the mapper). Leg 2: 3 again (judged now), 7 again
 * (the mapper again), then 12–17, with a judge identity observed from case 12. 20 case records.
 */
export const LEG_1: CaseProgress[] = Array.from({ length: 12 }, (_, i) => progress(i === 3 ? errored(3, 'target') : i === 7 ? errored(7, 'mapper') : judged(i), OBSERVED_1, i))
export const LEG_2: CaseProgress[] = [
  progress(judged(3), OBSERVED_1, 3),
  progress(errored(7, 'mapper'), OBSERVED_1, 7),
  ...Array.from({ length: 6 }, (_, i) => progress(judged(12 + i), OBSERVED_2, 12 + i)),
]

/** What a reader must rebuild from legs 1 and 2: the last record per case. */
export function expectedDone(records: readonly CaseProgress[] = [...LEG_1, ...LEG_2]): Map<string, CaseResult> {
  const done = new Map<string, CaseResult>()
  for (const p of records) done.set(p.result.case_id, p.result)
  return done
}

export function expectedCauses(records: readonly CaseProgress[] = [...LEG_1, ...LEG_2]): Map<string, ErrorCause> {
  const causes = new Map<string, ErrorCause>()
  for (const p of records) {
    if (p.result.error === null) causes.delete(p.result.case_id)
    else causes.set(p.result.case_id, p.result.error.cause)
  }
  return causes
}

export async function writeJournal(journal: FileJournal, legs: readonly (readonly CaseProgress[])[] = [LEG_1, LEG_2]): Promise<void> {
  for (const [i, records] of legs.entries()) {
    const leg = await journal.openJournal(journalHeader({ started_at: `2026-11-29T22:4${i}:00.000001Z` }), i + 1)
    for (const p of records) await leg.append(p)
    await leg.close()
  }
}

export function legFile(root: string, leg: number, key = KEY): string {
  return join(root, TENANT, 'runs', SUITE, '.pending', `${key}.${leg}.jsonl`)
}

/** The byte ranges [start, end) of a file's lines, newline included. */
export function lineRanges(file: string): { start: number; end: number }[] {
  const bytes = readFileSync(file)
  const ranges: { start: number; end: number }[] = []
  let start = 0
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      ranges.push({ start, end: i + 1 })
      start = i + 1
    }
  }
  return ranges
}

/**
 * Calls `append` n times, each from a callback of its own, all in one turn of the event loop: immediates
 * queued together run in one phase of one turn, as the callbacks of sockets found ready together do.
 */
export function inOneTurn(n: number, append: (i: number) => Promise<void>): Promise<Promise<void>[]> {
  return new Promise((resolve) => {
    const out: Promise<void>[] = []
    for (let i = 0; i < n; i++) {
      setImmediate(() => {
        out.push(append(i))
        if (out.length === n) resolve(out)
      })
    }
  })
}
