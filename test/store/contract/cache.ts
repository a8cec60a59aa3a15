// The response-cache part (SPEC §14): answers by key, per tenant and suite, disposable, and removed
// with the run that asked for them (SPEC §7). Backend-neutral: it speaks only through the Store contract.
import { describe, expect, it } from 'vitest'
import { ANSWER_FIELDS, cachedAnswerOf, CACHED_ANSWER_FIELDS } from '../../../src/document/answer-shape.js'
import { PathRefusedError } from '../../../src/suite/errors.js'
import { artifactsDigest, cacheKeyOf, cacheKeyParts, codeDigest, inputDigest, targetDigest, type CacheEntry } from '../../../src/suite/cache-key.js'
import { keyOf, makeRun } from '../../helpers/make-run.js'
import { HOSTILE_NAMES, refusedWithoutChange, type ContractSubject } from './harness.js'

const RUN = '20261201T090000000001Z-0123456789ab'
const CODE_FILES = { 'evals/capitals.eval.ts': 'a'.repeat(64), 'src/ask.ts': 'b'.repeat(64) }

function entry(caseId: string, sample: number, output: unknown, at: string, input: unknown = caseId, run = RUN): CacheEntry {
  const subject = {
    input: inputDigest(input),
    target: targetDigest({ model: 'geo-v1', temperature: 0 }),
    artifacts: artifactsDigest({}),
    code: codeDigest(CODE_FILES),
    codeFiles: CODE_FILES,
  }
  const parts = cacheKeyParts(subject, sample)
  return {
    key: cacheKeyOf(caseId, parts),
    case_id: caseId,
    parts,
    code_files: CODE_FILES,
    run,
    answer: { output, model: 'geo-v1-2026', usage: { input_tokens: 12, output_tokens: 3 } },
    cached_at: at,
  }
}

const T1 = '2026-12-01T09:00:00.000001Z'
const T2 = '2026-12-01T09:00:01.000001Z'

export function cachePart(current: () => ContractSubject): void {
  describe('the response cache', () => {
    it('gives back an entry exactly as it was filed, under its tenant, suite, case and key only', async () => {
      const { store } = current()
      const paris = entry('france', 0, { text: 'Paris', list: [1, 2, null] }, T1)
      expect(await store.cachedAnswer('acme', 'capitals', 'france', paris.key)).toBeUndefined()
      await store.cacheAnswer('acme', 'capitals', paris)
      expect(await store.cachedAnswer('acme', 'capitals', 'france', paris.key)).toEqual(paris)
      expect(await store.cachedAnswer('acme', 'rivers', 'france', paris.key)).toBeUndefined()
      expect(await store.cachedAnswer('globex', 'capitals', 'france', paris.key)).toBeUndefined()
      expect(await store.cachedAnswer('acme', 'capitals', 'france', entry('france', 1, 'x', T1).key)).toBeUndefined()
    })

    it('replaces an entry filed again under the same key', async () => {
      const { store } = current()
      await store.cacheAnswer('acme', 'capitals', entry('france', 0, 'Paris', T1))
      const again = entry('france', 0, 'Paris, France', T2)
      await store.cacheAnswer('acme', 'capitals', again)
      expect(await store.cachedAnswer('acme', 'capitals', 'france', again.key)).toEqual(again)
      expect(await store.cachedAnswersOf('acme', 'capitals', 'france')).toEqual([again])
    })

    it("lists one case's entries newest first, and none of another case", async () => {
      const { store } = current()
      const old = entry('france', 0, 'Paris', T1, 'France')
      const newer = entry('france', 0, 'Paris', T2, 'France (edited)')
      const other = entry('spain', 0, 'Madrid', T2)
      for (const e of [old, newer, other]) await store.cacheAnswer('acme', 'capitals', e)
      expect(await store.cachedAnswersOf('acme', 'capitals', 'france')).toEqual([newer, old])
      expect(await store.cachedAnswersOf('acme', 'capitals', 'italy')).toEqual([])
      expect(await store.cachedAnswersOf('acme', 'rivers', 'france')).toEqual([])
    })

    it('clears one suite, or every suite of a tenant, saying how many entries went, and never another tenant', async () => {
      const { store } = current()
      await store.cacheAnswer('acme', 'capitals', entry('france', 0, 'Paris', T1))
      await store.cacheAnswer('acme', 'capitals', entry('france', 1, 'Paris', T1))
      await store.cacheAnswer('acme', 'rivers', entry('nile', 0, 'Egypt', T1))
      await store.cacheAnswer('globex', 'capitals', entry('france', 0, 'Paris', T1))
      expect(await store.clearCache('acme', 'capitals')).toBe(2)
      expect(await store.cachedAnswersOf('acme', 'capitals', 'france')).toEqual([])
      expect(await store.cachedAnswersOf('acme', 'rivers', 'nile')).toHaveLength(1)
      expect(await store.clearCache('acme', 'capitals')).toBe(0)
      expect(await store.clearCache('acme')).toBe(1)
      expect(await store.cachedAnswersOf('acme', 'rivers', 'nile')).toEqual([])
      expect(await store.cachedAnswersOf('globex', 'capitals', 'france')).toHaveLength(1)
    })

    it("loses the answers a run asked for when the run is deleted, keeps every other run's, and adds nothing to the runs or journals a suite lists", async () => {
      const { store } = current()
      const run = makeRun()
      await store.writeRun(run)
      const mine = [entry('france', 0, 'Paris', T1, 'france', keyOf(run)), entry('spain', 1, 'Madrid', T1, 'spain', keyOf(run))]
      const other = entry('italy', 0, 'Rome', T1, 'italy', RUN)
      for (const e of [...mine, other]) await store.cacheAnswer(run.tenant, run.suite, e)
      expect((await store.listRuns(run.tenant, run.suite)).runs.map((r) => r.key)).toEqual([keyOf(run)])
      expect(await store.pending(run.tenant, run.suite)).toEqual([])
      await store.deleteRun(run.tenant, run.suite, keyOf(run))
      for (const e of mine) expect(await store.cachedAnswer(run.tenant, run.suite, e.case_id, e.key)).toBeUndefined()
      expect(await store.cachedAnswer(run.tenant, run.suite, 'italy', other.key)).toEqual(other)
      // A delete repeated after the run is gone still forgets what the run asked for (an interrupted delete finishes).
      const late = entry('france', 1, 'Paris', T2, 'france', keyOf(run))
      await store.cacheAnswer(run.tenant, run.suite, late)
      const again = await store.deleteRun(run.tenant, run.suite, keyOf(run))
      expect(again.nothing).toBe(true)
      expect(await store.cachedAnswer(run.tenant, run.suite, 'france', late.key)).toBeUndefined()
      expect(await store.forgetRunAnswers(run.tenant, run.suite, RUN)).toBe(1)
      expect(await store.cachedAnswer(run.tenant, run.suite, 'italy', other.key)).toBeUndefined()
    })

    it('keeps every field of a cached answer the answer shape names (src/document/answer-shape.ts), in its order', async () => {
      const { store } = current()
      const answer = cachedAnswerOf(Object.fromEntries(CACHED_ANSWER_FIELDS.map((name) => [name, ANSWER_FIELDS[name].kind.example])))
      const filed = { ...entry('france', 0, 'Paris', T1), answer }
      await store.cacheAnswer('acme', 'capitals', filed)
      const back = await store.cachedAnswer('acme', 'capitals', 'france', filed.key)
      expect(back?.answer, "this backend's cache lost a field of the answer").toEqual(answer)
      expect(Object.keys(back!.answer)).toEqual([...CACHED_ANSWER_FIELDS])
    })

    it('refuses an entry filed under a key that is not the key of its own parts, and changes nothing', async () => {
      const subject = current()
      const paris = entry('france', 0, 'Paris', T1)
      await refusedWithoutChange(subject, () => subject.store.cacheAnswer('acme', 'capitals', { ...paris, key: entry('france', 1, 'Paris', T1).key }), PathRefusedError)
    })

    it('refuses hostile names and malformed keys before any I/O', async () => {
      const subject = current()
      const { store } = subject
      const paris = entry('france', 0, 'Paris', T1)
      for (const name of HOSTILE_NAMES) {
        await refusedWithoutChange(subject, () => store.cacheAnswer(name, 'capitals', paris), PathRefusedError)
        await refusedWithoutChange(subject, () => store.cacheAnswer('acme', name, paris), PathRefusedError)
        await refusedWithoutChange(subject, () => store.cachedAnswer('acme', 'capitals', name, paris.key), PathRefusedError)
        await refusedWithoutChange(subject, () => store.cachedAnswersOf('acme', name, 'france'), PathRefusedError)
        await refusedWithoutChange(subject, () => store.clearCache(name), PathRefusedError)
        await refusedWithoutChange(subject, () => store.clearCache('acme', name), PathRefusedError)
        await refusedWithoutChange(subject, () => store.forgetRunAnswers('acme', 'capitals', name), PathRefusedError)
      }
      for (const key of ['', '..', 'ABC', paris.key.toUpperCase(), `${paris.key}0`, '../x'])
        await refusedWithoutChange(subject, () => store.cachedAnswer('acme', 'capitals', 'france', key), PathRefusedError)
    })
  })
}
