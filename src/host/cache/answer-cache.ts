// The response cache as one launch uses it: before the first call, the answers it already holds for
// the cases this launch will call (so the announced bill counts only real calls); during the run,
// every new answer the target gives, filed under a key of digests (src/suite/cache-key.ts) and under
// the run that asked for it, so that deleting the run removes it (SPEC §7). The code the target runs
// is hashed once per launch (code-files.ts).
import type { Store } from '../../store/contract.js'
import { mapLimited } from '../../store/map-limited.js'
import {
  artifactsDigest,
  cacheKeyOf,
  cacheKeyParts,
  codeDigest,
  inputDigest,
  targetDigest,
  type CacheEntry,
  type CachedTargetAnswer,
  type CaseCacheSubject,
  type CodeFiles,
} from '../../suite/cache-key.js'
import { createdAtNow } from '../../suite/keys.js'
import { findNotPlain } from '../../suite/plain-data.js'
import type { EvalCase } from '../../suite/types.js'
import type { AnswerCache, Prepared } from '../launch/prepared.js'

export type { AnswerCache } from '../launch/prepared.js'

const LOOKUPS_IN_FLIGHT = 16

/** The digests a case's cache keys are made of, for the suite as this launch prepared it. */
export function cacheSubjectsOf(prepared: Pick<Prepared, 'suite' | 'artifacts'>, codeFiles: CodeFiles): (evalCase: EvalCase) => CaseCacheSubject {
  const target = targetDigest(prepared.suite.targetConfig)
  const artifacts = artifactsDigest(prepared.artifacts)
  const code = codeDigest(codeFiles)
  return (evalCase) => ({ input: inputDigest(evalCase.input), target, artifacts, code, codeFiles })
}

/** `store` keeps the cache (not always the run's store: see cacheStoreFor); `codeFiles` is the code the target runs. */
export async function openAnswerCache(store: Store, prepared: Prepared, codeFiles: CodeFiles, say: (line: string) => void): Promise<AnswerCache> {
  const { suite, tenant } = prepared
  const subjectOf = cacheSubjectsOf(prepared, codeFiles)
  const toCall = suite.cases.filter(
    (c) => !prepared.done.has(c.id) && (prepared.only === undefined || prepared.only.has(c.id)) && (prepared.mine === undefined || prepared.mine.has(c.id)),
  )
  const hits = new Map<string, (CachedTargetAnswer | undefined)[]>()
  let count = 0
  await mapLimited(toCall, LOOKUPS_IN_FLIGHT, async (evalCase) => {
    const subject = subjectOf(evalCase)
    const answers: (CachedTargetAnswer | undefined)[] = []
    for (let sample = 0; sample < suite.rules.samples; sample++) {
      const key = cacheKeyOf(evalCase.id, cacheKeyParts(subject, sample))
      const entry = await store.cachedAnswer(tenant, suite.name, evalCase.id, key)
      answers.push(entry?.answer)
      if (entry !== undefined) count++
    }
    if (answers.some((a) => a !== undefined)) hits.set(evalCase.id, answers)
  })
  const byId = new Map(suite.cases.map((c) => [c.id, c]))
  let complained = false
  return {
    hits,
    count,
    async keep(caseId, sample, answer) {
      // Only plain JSON comes back from the cache as it went in; anything else is asked for again next time.
      if (findNotPlain(answer) !== undefined) return
      const subject = subjectOf(byId.get(caseId)!)
      const parts = cacheKeyParts(subject, sample)
      const entry: CacheEntry = {
        key: cacheKeyOf(caseId, parts),
        case_id: caseId,
        parts,
        code_files: subject.codeFiles,
        run: prepared.key,
        answer: JSON.parse(JSON.stringify(answer)) as CachedTargetAnswer,
        cached_at: createdAtNow(),
      }
      try {
        await store.cacheAnswer(tenant, suite.name, entry)
      } catch (error) {
        if (complained) return
        complained = true
        say(
          `digline ${suite.name}: the response cache could not keep an answer (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); the run goes on without it`,
        )
      }
    },
  }
}
