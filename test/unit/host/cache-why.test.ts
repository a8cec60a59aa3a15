// `digline cache why`'s decision in process (moved from test/e2e/cache.test.ts, which keeps the
// wiring: a suite file edited on disk, read through a real Vitest collect): against a real file
// store holding one answer per sample, which key parts a case's subject as declared now differs in,
// and the sentence that names them.
import { afterEach, beforeEach, expect, test } from 'vitest'
import { explainCacheMiss, formatCacheWhy } from '../../../src/host/cache/cache-why.js'
import { artifactsDigest, cacheKeyOf, cacheKeyParts, codeDigest, inputDigest, targetDigest, type CaseCacheSubject, type CodeFiles } from '../../../src/suite/cache-key.js'
import { makeTempStore, type TempStore } from '../../store/temp-store.js'

const CACHED_AT = '2026-11-30T10:00:00.000001Z'

function subject(over: { input?: string; model?: string; prompt?: string; files?: CodeFiles } = {}): CaseCacheSubject {
  const codeFiles = over.files ?? { 'evals/cached.eval.ts': 'a'.repeat(64) }
  return {
    input: inputDigest(over.input ?? 'oslo'),
    target: targetDigest({ model: over.model ?? 'up-v1' }),
    artifacts: artifactsDigest({ 'prompt.txt': over.prompt ?? 'v1' }),
    code: codeDigest(codeFiles),
    codeFiles,
  }
}

let temp: TempStore
beforeEach(async () => {
  temp = makeTempStore()
  const cached = subject()
  for (const sample of [0, 1]) {
    const parts = cacheKeyParts(cached, sample)
    await temp.store.cacheAnswer('acme', 'cached', {
      key: cacheKeyOf('c2', parts),
      case_id: 'c2',
      parts,
      code_files: cached.codeFiles,
      run: '20261130T100000000001Z-000000000000',
      answer: { output: 'OSLO' },
      cached_at: CACHED_AT,
    })
  }
})
afterEach(() => temp.cleanup())

const why = async (now: CaseCacheSubject | null | undefined, sample = 0, caseId = 'c2') =>
  formatCacheWhy(await explainCacheMiss({ store: temp.store, tenant: 'acme', suite: 'cached', caseId, sample, current: () => Promise.resolve(now) }))

test.each([
  ['nothing changed', subject(), 0, 'case c2 of suite cached, sample 0: cached (answer of'],
  ['the input', subject({ input: 'oslo, norway' }), 0, '(sample 0), the case input changed, so the next run asks the target again'],
  ['the sample index (no answer for sample 3: the nearest is compared)', subject(), 3, /\(sample \d\), the sample index changed/],
  ['the target config', subject({ model: 'up-v2' }), 1, '(sample 1), the target config changed'],
  ['the input and the target config', subject({ input: 'oslo, norway', model: 'up-v2' }), 0, 'the case input, the target config changed'],
  ['the artifacts', subject({ prompt: 'v2' }), 0, 'the artifacts changed'],
  ['the code, naming the file', subject({ files: { 'evals/cached.eval.ts': 'a'.repeat(64), 'src/trim.ts': 'b'.repeat(64) } }), 0, 'the code the target runs (src/trim.ts) changed'],
] as const)('%s', async (_what, now, sample, says) => {
  const said = await why(now, sample)
  if (typeof says === 'string') expect(said).toContain(says)
  else expect(said).toMatch(says)
})

test('a case with nothing cached, an undeclared suite and an undeclared case', async () => {
  expect(await why(subject(), 0, 'c0')).toContain('case c0 of suite cached, sample 0: nothing is cached for this case')
  await expect(why(undefined)).rejects.toMatchObject({ name: 'SuiteNotDeclaredError' })
  await expect(why(null)).rejects.toMatchObject({ name: 'UsageError' })
})
