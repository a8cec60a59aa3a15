// Adaptive samples (ADR 0360) through a spawned Vitest: a deterministic counted target whose answer
// depends on the case and the sample; each case takes 2 samples, then more up to 6 only while its
// verdict at 6 could still change. The document must hold exactly the samples the target was asked
// for and why each case stopped; a kill -9 mid-run and `digline run --resume` must file the same bytes.
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, test } from 'vitest'
import { FileResultStore } from '../../src/store/file/store.js'
import { makeProject, type Project } from '../helpers/project.js'
import { callLines, killAfterCalls } from '../helpers/kill.js'

const env = { DIGLINE_CREATED_AT: '2026-11-29T22:39:56.123456Z' }
const CASES = 40

const SUITE = `import { evalSuite, scorers } from 'digline'
import { appendFileSync } from 'node:fs'

evalSuite({
  name: 'adaptive',
  cases: Array.from({ length: ${CASES} }, (_, i) => ({ id: 'c' + String(i).padStart(3, '0'), input: i, expected: 'right' })),
  target: {
    config: { model: 'det-v1' },
    async ask(i, ctx) {
      appendFileSync('calls.log', ctx.caseId + ':' + ctx.sample + '\\n')
      await new Promise((r) => setTimeout(r, 6 + (i % 5)))
      // case i answers right at sample s when (i·7919 + s·104729) mod 10 < 7: some cases always, some never, most mixed
      const right = i % 8 === 0 || (i % 8 !== 1 && (i * 7919 + ctx.sample * 104729) % 10 < 7)
      return { output: right ? 'right' : 'wrong', model: 'det-v1-2026' }
    },
  },
  samples: { min: 2, max: 6 },
  minAgreement: 4 / 6,
  scorers: [scorers.exact()],
  concurrency: 2,
})
`

interface Doc {
  config_hash: string
  rules: { samples: number; min_samples?: number }
  aggregates: { samples_per_case: number; samples_taken?: number }
  results: { case_id: string; verdict: string; passed_samples: number; samples: { pass: boolean }[]; sampling_stopped?: string }[]
}

function documentOf(project: Project): { bytes: Buffer; doc: Doc } {
  const [file] = project.runFiles('acme', 'adaptive')
  const bytes = readFileSync(join(project.dir, '.digline', 'acme', 'runs', 'adaptive', file!))
  return { bytes, doc: JSON.parse(bytes.toString('utf8')) as Doc }
}

const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex')

let whole: Project
let wholeDoc: { bytes: Buffer; doc: Doc }
beforeAll(async () => {
  whole = makeProject({ 'evals/adaptive.eval.ts': SUITE })
  const result = await whole.vitest([], env)
  expect([0, 1], result.stdout + result.stderr).toContain(result.code)
  expect(result.stderr).toContain(`${CASES} of ${CASES} cases × 2 to 6 samples = at most ${CASES * 6} calls to the target`)
  wholeDoc = documentOf(whole)
}, 300_000)

describe('samples { min: 2, max: 6 } in a real run', () => {
  test('each case holds exactly the samples the target was asked for, and says why it stopped', () => {
    const { doc } = wholeDoc
    expect(doc.rules).toMatchObject({ samples: 6, min_samples: 2 })
    const calls = callLines(whole)
    const perCase = new Map<string, number[]>()
    for (const line of calls) {
      const [id, sample] = line.split(':')
      perCase.set(id!, [...(perCase.get(id!) ?? []), Number(sample)])
    }
    const stops = new Map<string, number>()
    for (const r of doc.results) {
      expect(
        perCase.get(r.case_id)?.sort((a, b) => a - b),
        r.case_id,
      ).toEqual(Array.from({ length: r.samples.length }, (_, s) => s))
      expect(r.samples.length).toBeGreaterThanOrEqual(2)
      expect(r.samples.length).toBeLessThanOrEqual(6)
      const passed = r.samples.filter((s) => s.pass).length
      const failed = r.samples.length - passed
      // Independently: it stopped early only once 4 passes, or 3 failures, fixed the verdict at 6.
      expect(r.sampling_stopped).toBe(r.samples.length === 6 ? 'max' : 'settled')
      if (r.samples.length < 6) expect(passed >= 4 || failed >= 3).toBe(true)
      if (r.samples.length > 2) {
        const before = r.samples.slice(0, -1).filter((s) => s.pass).length
        expect(before < 4 && r.samples.length - 1 - before < 3).toBe(true)
      }
      expect(r.verdict).toBe(passed >= 4 ? 'pass' : 'fail')
      stops.set(r.sampling_stopped!, (stops.get(r.sampling_stopped!) ?? 0) + 1)
    }
    expect(calls).toHaveLength(doc.aggregates.samples_taken!)
    expect(doc.aggregates.samples_taken).toBeLessThan(CASES * 6)
    // The suite's steady cases stop early, its mixed ones do not all.
    expect(stops.get('settled')).toBeGreaterThan(10)
    expect(stops.get('max')).toBeGreaterThan(0)
  })

  test('killed with SIGKILL mid-run and resumed: the same bytes, and every journaled case is not asked again', async () => {
    const project = makeProject({ 'evals/adaptive.eval.ts': SUITE })
    await killAfterCalls(project, 70, env)
    const store = new FileResultStore({ root: join(project.dir, '.digline') })
    const [pending] = await store.pending('acme', 'adaptive')
    const journaled = [...pending!.done.values()]
    expect(journaled.length).toBeGreaterThan(0)
    expect(journaled.length).toBeLessThan(CASES)
    // A journaled record holds every sample and the stop reason.
    for (const r of journaled) expect(r.sampling_stopped).toBeDefined()
    const before = callLines(project).length
    const resumed = await project.digline(['run', '--resume'])
    expect([0, 1], resumed.stdout + resumed.stderr).toContain(resumed.code)
    const leg = callLines(project).slice(before)
    const done = new Set(journaled.map((r) => r.case_id))
    expect(leg.filter((l) => done.has(l.split(':')[0]!))).toEqual([])
    const resumedDoc = documentOf(project)
    expect(sha(resumedDoc.bytes)).toBe(sha(wholeDoc.bytes))
  }, 300_000)
})
