// The promotion decision matrix (docs/adr/0009) in process: promoteRun against a real file store in a
// temp directory. Each refusal is named, exits 64, names a command accepted in that state, and
// leaves the store as it was. The CLI wiring keeps two cases in test/e2e/promotion-conditions.test.ts.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RunDocument } from '../../../src/document/schema.js'
import { serializeRun } from '../../../src/document/serialize.js'
import { CachedRunNotPromotableError, ConfigHashMismatchError, ErroredRunNotPromotableError, ReplayNotPromotableError } from '../../../src/host/lifecycle/errors.js'
import {
  MisfiledRunError,
  ReplacingMismatchError,
  ReplacingRequiredError,
  RunNotFoundError,
  RunRemovedError,
  UnreadableBaselineError,
  UnreadableRegisterError,
  UnreadableRunError,
} from '../../../src/store/errors.js'
import { NoPendingJournalError, SuiteNotDeclaredError } from '../../../src/host/errors.js'
import { PathRefusedError } from '../../../src/suite/errors.js'
import { findPending } from '../../../src/host/project/pending-journals.js'
import { promoteRun, type PromoteRequest } from '../../../src/host/lifecycle/promote.js'
import { keyFor } from '../../../src/suite/keys.js'
import { createdAtSeconds, DEFAULT_CONFIG_HASH, keyOf, makeRun } from '../../helpers/make-run.js'
import { refusedWithoutChange, type ContractSubject } from '../../store/contract/harness.js'
import { makeTempStore, type TempStore } from '../../store/temp-store.js'

const [T0, T1, T2, T3] = createdAtSeconds(4)
const OLD_HASH = 'aaaaaaaaaaaa'

let temp: TempStore
let subject: ContractSubject
const base = makeRun({ createdAt: T0 })
const next = makeRun({ createdAt: T1 })
const old = makeRun({ createdAt: T2, configHash: OLD_HASH })

function errored(): RunDocument {
  const doc = makeRun({ createdAt: T3 })
  const results = doc.results.map((r, i) =>
    i === 1 ? { ...r, verdict: 'error' as const, score: null, passed_samples: 0, error: { cause: 'target' as const, message: 'upstream 529' }, samples: [] } : r,
  )
  return { ...doc, results, aggregates: { ...doc.aggregates, errored: 1, passed: doc.aggregates.passed - 1 } }
}

function request(key: string, replacing?: string): PromoteRequest {
  return { store: temp.store, tenant: 'acme', suite: 'capitals', key, replacing, currentConfigHash: async () => DEFAULT_CONFIG_HASH, now: () => '2026-12-01T09:00:00.000001Z' }
}

beforeEach(async () => {
  temp = makeTempStore()
  subject = { store: temp.store, locator: temp.root, snapshot: () => temp.snapshot(), cleanup: () => temp.cleanup() }
  for (const doc of [base, next, old, errored()]) await temp.store.writeRun(doc)
  await promoteRun(request(keyOf(base)))
})
afterEach(() => temp.cleanup())

describe('promotion conditions, each refused by name with nothing changed', () => {
  it('1: tenant, suite and keys are safe path segments', async () => {
    await refusedWithoutChange(subject, () => promoteRun(request('../escape', keyOf(base))), PathRefusedError)
    await refusedWithoutChange(subject, () => promoteRun(request(keyOf(next), 'a/b')), PathRefusedError)
    await refusedWithoutChange(subject, () => promoteRun({ ...request(keyOf(next), keyOf(base)), suite: '..' }), PathRefusedError)
  })

  it('2a: the register can be read (a bad line is refused by number)', async () => {
    writeFileSync(join(temp.root, 'acme', 'register.jsonl'), '{"not":"an entry"}\n=======\n')
    const refusal = await refusedWithoutChange(subject, () => promoteRun(request(keyOf(next), keyOf(base))), UnreadableRegisterError)
    expect(refusal.message).toContain('line 1')
  })

  it('2b: the current baseline can be read', async () => {
    writeFileSync(join(temp.root, 'acme', 'baselines', 'capitals.json'), '{ "schema_version": 1, ')
    await refusedWithoutChange(subject, () => promoteRun(request(keyOf(next), keyOf(base))), UnreadableBaselineError)
  })

  it('3: the run exists, can be read, and is filed under its own key', async () => {
    const missing = await refusedWithoutChange(subject, () => promoteRun(request(keyFor('2026-01-01T00:00:00.000001Z', DEFAULT_CONFIG_HASH), keyOf(base))), RunNotFoundError)
    expect(missing.message).toContain('digline list --suite capitals')
    const unreadable = keyFor('2026-01-02T00:00:00.000001Z', DEFAULT_CONFIG_HASH)
    temp.plant('acme', 'capitals', unreadable, '{ "schema_version": 1, "tenant": ')
    await refusedWithoutChange(subject, () => promoteRun(request(unreadable, keyOf(base))), UnreadableRunError)
    const misfiled = keyFor('2026-01-03T00:00:00.000001Z', DEFAULT_CONFIG_HASH)
    temp.plant('acme', 'capitals', misfiled, serializeRun(next))
    const refusal = await refusedWithoutChange(subject, () => promoteRun(request(misfiled, keyOf(base))), MisfiledRunError)
    expect(refusal.message).toContain(`its key is ${keyOf(next)}`)
  })

  it('4: the run is not a replay', async () => {
    const replay = { ...makeRun({ createdAt: '2026-11-29T22:40:00.000001Z' }), rejudged_from: keyOf(next), rejudged_from_suite: 'capitals' }
    await temp.store.writeRun(replay)
    const refusal = await refusedWithoutChange(subject, () => promoteRun(request(keyOf(replay), keyOf(base))), ReplayNotPromotableError)
    expect(refusal.message).toContain(`it is a replay of capitals/${keyOf(next)}`)
  })

  it('5: no case errored — and the next step is one the store accepts: a finished run is measured again, never resumed', async () => {
    const key = keyOf(errored())
    const refusal = await refusedWithoutChange(subject, () => promoteRun(request(key, keyOf(base))), ErroredRunNotPromotableError)
    expect(refusal.message).toContain('1 case(s) errored (case-00001)')
    expect(refusal.next).not.toContain('--resume')
    expect(refusal.next).toMatch(/^vitest run .* then digline promote --suite capitals --run NEW_KEY --replacing /)
    // What the old hint named would be refused in this state:
    await expect(findPending(temp.store, 'acme', 'capitals', key)).rejects.toBeInstanceOf(NoPendingJournalError)
  })

  it('4b: no answer came from the response cache', async () => {
    const doc = makeRun({ createdAt: '2026-11-29T22:41:00.000001Z' })
    const results = doc.results.map((r, i) => (i === 0 ? { ...r, samples: r.samples.map((s) => ({ ...s, cached: true as const })) } : r))
    const cached = { ...doc, cached_answers: results[0]!.samples.length, results }
    await temp.store.writeRun(cached)
    const refusal = await refusedWithoutChange(subject, () => promoteRun(request(keyOf(cached), keyOf(base))), CachedRunNotPromotableError)
    expect(refusal.message).toContain('came from the response cache')
    expect(refusal.next).toMatch(/^digline run --no-cache .* then digline promote --suite capitals --run NEW_KEY --replacing /)
  })

  it('6: a suite file declares the suite now', async () => {
    await refusedWithoutChange(subject, () => promoteRun({ ...request(keyOf(next), keyOf(base)), currentConfigHash: async () => undefined }), SuiteNotDeclaredError)
  })

  it("7: the run's config_hash is the suite's current one", async () => {
    const refusal = await refusedWithoutChange(subject, () => promoteRun(request(keyOf(old), keyOf(base))), ConfigHashMismatchError)
    expect(refusal.message).toContain(`judged under config_hash ${OLD_HASH}, and the suite as declared now has config_hash ${DEFAULT_CONFIG_HASH}`)
  })

  it('8: with a baseline, --replacing is required and must name it; the message names the exact command', async () => {
    const required = await refusedWithoutChange(subject, () => promoteRun(request(keyOf(next))), ReplacingRequiredError)
    expect(required.next).toBe(`digline promote --suite capitals --run ${keyOf(next)} --replacing ${keyOf(base)}`)
    const mismatch = await refusedWithoutChange(subject, () => promoteRun(request(keyOf(next), keyOf(old))), ReplacingMismatchError)
    expect(mismatch.message).toContain(`--replacing names ${keyOf(old)}, but the current baseline is ${keyOf(base)}`)
  })

  it('9: without a baseline, there is nothing to replace', async () => {
    const fresh = makeRun({ suite: 'fresh' })
    await temp.store.writeRun(fresh)
    const refusal = await refusedWithoutChange(subject, () => promoteRun({ ...request(keyOf(fresh), keyOf(base)), suite: 'fresh' }), ReplacingMismatchError)
    expect(refusal.next).toBe(`digline promote --suite fresh --run ${keyOf(fresh)}`)
  })

  it('10: a removed key is never promoted', async () => {
    await temp.store.deleteRun('acme', 'capitals', keyOf(next))
    await refusedWithoutChange(subject, () => promoteRun(request(keyOf(next), keyOf(base))), RunRemovedError)
  })
})

describe('a promotion that holds every condition', () => {
  it('swaps the baseline and appends one line; repeated, writes nothing; interrupted before its line, finishes it', async () => {
    const done = await promoteRun(request(keyOf(next), keyOf(base)))
    expect(done).toMatchObject({ outcome: 'promoted', replaced: keyOf(base) })
    expect((await temp.store.readRegister('acme')).map((e) => [e.key, e.replaced])).toEqual([
      [keyOf(base), null],
      [keyOf(next), keyOf(base)],
    ])
    const before = temp.snapshot()
    expect((await promoteRun(request(keyOf(next), keyOf(base)))).outcome).toBe('already')
    expect(temp.snapshot()).toEqual(before)

    const register = join(temp.root, 'acme', 'register.jsonl')
    const lines = await temp.store.readRegister('acme')
    mkdirSync(join(temp.root, 'acme'), { recursive: true })
    writeFileSync(register, `${JSON.stringify(lines[0])}\n`)
    const finished = await promoteRun(request(keyOf(next), keyOf(base)))
    expect(finished.outcome).toBe('completed')
    expect((await temp.store.readRegister('acme')).map((e) => [e.key, e.replaced, e.promoted_at])).toEqual([
      [keyOf(base), null, lines[0]!.promoted_at],
      [keyOf(next), keyOf(base), lines[1]!.promoted_at],
    ])
  })
})
