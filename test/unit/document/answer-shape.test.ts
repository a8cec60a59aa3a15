// A field added to the answer shape (src/document/answer-shape.ts) reaches the document, the
// readers, the journal, the driver, the cache entry and the report data, or this test names the
// place that forgot it. Every check walks the definition, so a new field is checked without a new
// test; only the driver needs to be told how to make it appear (DRIVER_FILLS below).
import { describe, expect, it } from 'vitest'
import { ANSWER_FIELDS, cachedAnswerOf, cachedAnswerSchema, CACHED_ANSWER_FIELDS, SAMPLE_ANSWER_FIELDS, type AnswerFieldName } from '../../../src/document/answer-shape.js'
import { fastRunDocument, isCanonicalCaseResult } from '../../../src/document/fast-shape.js'
import { caseResultSchema, runDocumentSchema, sampleResultSchema, type CaseResult } from '../../../src/document/schema.js'
import { caseToJson, serializeCase, serializeRun } from '../../../src/document/serialize.js'
import { execute } from '../../../src/driver/execute.js'
import { caseRow } from '../../../src/host/report-data/report-data.js'
import { decodeLine, encodeCase } from '../../../src/store/journal-format.js'
import type { CachedTargetAnswer } from '../../../src/suite/cache-key.js'
import type { SuiteDefinition } from '../../../src/suite/types.js'
import { makeRun } from '../../helpers/make-run.js'
import { suiteOf } from '../driver/fixture.js'

const ALL = Object.keys(ANSWER_FIELDS) as AnswerFieldName[]
const cases = [{ id: 'c', input: 'c', expected: 'c' }]

function withAnswer(name: string, value: unknown): CaseResult {
  return {
    case_id: 'c',
    verdict: 'pass',
    score: 1,
    passed_samples: 1,
    reason: null,
    error: null,
    samples: [{ pass: true, score: 1, scorers: [{ name: 'exact', pass: true, score: 1, reason: null }], [name]: value }],
  } as CaseResult
}

const example = (name: AnswerFieldName): unknown => ANSWER_FIELDS[name].kind.example

/** How the driver is made to give each field; a new field needs an entry here, and the driver must fill it. */
const DRIVER_FILLS: Record<AnswerFieldName, { suite: Partial<SuiteDefinition>; cached?: CachedTargetAnswer }> = {
  usage: { suite: {} },
  output: { suite: { recordResponses: true } },
  model: { suite: {} },
  latency_ms: { suite: { tolerances: { latencyPerCase: 0.1 } } },
  cached: { suite: {}, cached: { output: 'c' } },
  steps: { suite: { recordResponses: true } },
  turns: { suite: { recordResponses: true } },
}

describe('every field of the answer shape', () => {
  it('is a sample field or a cached one', () => {
    const listed = new Set<string>([...SAMPLE_ANSWER_FIELDS, ...CACHED_ANSWER_FIELDS])
    for (const name of ALL) expect(listed.has(name), `answer-shape.ts: ${name} is in ANSWER_FIELDS but in neither SAMPLE_ANSWER_FIELDS nor CACHED_ANSWER_FIELDS`).toBe(true)
  })

  for (const name of SAMPLE_ANSWER_FIELDS) {
    describe(`sample field ${name}`, () => {
      const value = example(name)
      const result = withAnswer(name, value)

      it('is in the zod schema (src/document/schema.ts), which keeps it unchanged', () => {
        expect(Object.keys(sampleResultSchema.shape), 'src/document/schema.ts: sampleResultSchema forgot it').toContain(name)
        expect(caseResultSchema.parse(result).samples[0], 'src/document/schema.ts: zod did not give it back').toEqual(result.samples[0])
      })

      it('is read by the fast reader (src/document/fast-shape.ts) exactly when zod reads it', () => {
        expect(isCanonicalCaseResult(result), 'src/document/fast-shape.ts: says no to a valid value').toBe(true)
        if (ANSWER_FIELDS[name].kind.isCanonical(Symbol('not json'))) return
        const bad = withAnswer(name, Symbol('not json'))
        expect(caseResultSchema.safeParse(bad).success).toBe(false)
        expect(isCanonicalCaseResult(bad), 'src/document/fast-shape.ts: says yes to a value zod refuses').toBe(false)
      })

      it('is written by the serializer (src/document/serialize.ts) and read back from a document', () => {
        expect(caseToJson(result).samples, 'src/document/serialize.ts: caseToJson dropped it').toEqual(result.samples)
        const run = { ...makeRun({ results: 0 }), results: [result] }
        const back = JSON.parse(serializeRun(run)) as unknown
        expect(runDocumentSchema.parse(back).results[0]!.samples[0], 'document round trip').toEqual(result.samples[0])
        expect(fastRunDocument(back)?.results[0]!.samples[0], 'src/document/fast-shape.ts: fastRunDocument').toEqual(result.samples[0])
      })

      it('survives a journal record (src/store/journal-format.ts)', () => {
        const binding = { tenant: 'acme', suite: 's', key: '20261129T223956123456Z-3f9a0c1b2d4e' }
        const line = encodeCase(binding, result, null)
        const decoded = decodeLine(line.subarray(0, line.length - 1), binding)
        expect(decoded.ok && decoded.record.kind === 'case' ? decoded.record.result.samples[0] : decoded, 'the journal lost it').toEqual(result.samples[0])
        expect(line.toString('utf8')).toContain(serializeCase(result))
      })

      it('reaches the report data (src/host/report-data/report-data.ts), or the definition says why not', () => {
        const place = ANSWER_FIELDS[name].report
        if ('omitted' in place) {
          expect(place.omitted.length, `answer-shape.ts: ${name} is left out of the report without a reason`).toBeGreaterThan(10)
          return
        }
        const row = caseRow(result, true, null)
        const shown =
          place.row === 'answers'
            ? row.answers?.[0]
            : place.row === 'trajectories'
              ? row.trajectories?.[0]?.steps
              : place.row === 'conversations'
                ? row.conversations?.[0]?.turns
                : row.usage
        expect(shown, `src/host/report-data/report-data.ts: caseRow does not carry ${name} in ${place.row}`).toEqual(value)
        if (ANSWER_FIELDS[name].recordedOnly) expect(caseRow(result, false, null)[place.row], `report data shows unrecorded ${name}`).toBeUndefined()
      })
    })
  }

  for (const name of ALL) {
    it(`${name} is filled in by the driver (src/driver/single-answer-step.ts)`, async () => {
      const fills = DRIVER_FILLS[name]
      expect(fills, `no way to see ${name} from the driver: fill it in src/driver/single-answer-step.ts and say how here`).toBeDefined()
      const answer = { output: 'c', [name]: example(name) }
      const heard: CachedTargetAnswer[] = []
      const { results, observed } = await execute({
        suite: suiteOf({ cases, target: { ask: async () => answer }, scorers: [{ name: 'any', score: () => true }], ...fills.suite }),
        ...(fills.cached === undefined ? {} : { cached: new Map([['c', [fills.cached]]]) }),
        onAnswer: async (_id, _sample, a) => void heard.push(a),
      })
      expect(results[0]!.verdict, results[0]!.error?.message).toBe('pass')
      const sample = results[0]!.samples[0] as Record<string, unknown>
      if (name === 'model') expect(observed.target_model, 'the observed identity').toBe(example(name))
      else if (ANSWER_FIELDS[name].from === 'target') expect(sample[name], `src/driver/single-answer-step.ts: the sample lacks ${name}`).toEqual(example(name))
      else expect(sample[name], `src/driver/single-answer-step.ts: the driver did not measure ${name}`).toBeDefined()
      if ((CACHED_ANSWER_FIELDS as readonly string[]).includes(name)) {
        expect(heard[0]?.[name as keyof CachedTargetAnswer], `the cache entry's answer (cachedAnswerOf) lacks ${name}`).toEqual(example(name))
      }
    })
  }

  for (const name of CACHED_ANSWER_FIELDS) {
    it(`cached field ${name} is kept by the cache entry's encoding and schema`, () => {
      const answer = { output: 'x', [name]: example(name) }
      const encoded = cachedAnswerOf(answer)
      expect(encoded[name as keyof CachedTargetAnswer], 'cachedAnswerOf').toEqual(example(name))
      expect(cachedAnswerSchema.parse(JSON.parse(JSON.stringify(encoded))), 'cachedAnswerSchema (the file cache reads with it)').toEqual(encoded)
    })
  }

  it('a name that is no field (transcript) is accepted nowhere: zod strips it, the fast reader says no, the serializer leaves it out', () => {
    for (const name of ['transcript', 'turn']) {
      const result = withAnswer(name, [{ role: 'user', content: 'hi' }])
      expect(caseResultSchema.parse(result).samples[0]).not.toHaveProperty(name)
      expect(isCanonicalCaseResult(result)).toBe(false)
      expect(caseToJson(result).samples).toEqual([{ pass: true, score: 1, scorers: [{ name: 'exact', pass: true, score: 1, reason: null }] }])
    }
  })
})

describe('one check of token usage', () => {
  it('a target or a scorer reporting counts beyond 2^53 errors its case, instead of writing a document the readers refuse', async () => {
    const huge = { input_tokens: 2 ** 60, output_tokens: 1 }
    const target = await execute({ suite: suiteOf({ cases, target: { ask: async () => ({ output: 'c', usage: huge }) } }) })
    expect(target.results[0]!.error).toEqual({
      cause: 'target',
      message: expect.stringContaining('malformed answer: usage must be { input_tokens, output_tokens } of non-negative integers'),
    })
    const judged = await execute({ suite: suiteOf({ cases, target: async () => 'c', scorers: [{ name: 'judge', score: () => ({ pass: true, usage: huge }) }] }) })
    expect(judged.results[0]!.error).toMatchObject({ cause: 'scorer', message: expect.stringContaining('not { input_tokens, output_tokens } of non-negative integers') })
  })

  it('extra keys a provider adds are dropped, the two counts kept', async () => {
    const usage = { output_tokens: 3, input_tokens: 12, total_tokens: 15 }
    const { results } = await execute({ suite: suiteOf({ cases, target: { ask: async () => ({ output: 'c', usage }) } }) })
    expect(Object.entries(results[0]!.samples[0]!.usage!)).toEqual([
      ['input_tokens', 12],
      ['output_tokens', 3],
    ])
  })
})
