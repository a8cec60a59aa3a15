// A real `vitest run` of a 50-case suite in a project that installed the packed tarball.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { makeProject, countingSuite } from '../helpers/project.js'

const CREATED_AT = '2026-11-29T22:39:56.123456Z'

describe('vitest run writes the run document', () => {
  // c000..c049; every 10th case always wrong; every 7th wrong at sample 1 only (2/3 agree → pass).
  const answer = "(i % 10 === 3) ? 'wrong' : (i % 7 === 0 && sample === 1) ? 'flaky' : 'ok-' + i"

  test('a 50-case suite with samples 3: the document, its name, its header order, its results and aggregates', async () => {
    const project = makeProject({ 'evals/known.eval.ts': countingSuite({ name: 'known', cases: 50, samples: 3, minAgreement: 2 / 3, answer, concurrency: 5 }) })
    const result = await project.vitest([], { DIGLINE_CREATED_AT: CREATED_AT })
    expect(result.code, result.stdout + result.stderr).toBe(0)

    const files = project.runFiles('acme', 'known')
    expect(files).toHaveLength(1)
    const text = readFileSync(join(project.dir, '.digline', 'acme', 'runs', 'known', files[0]!), 'utf8')
    const doc = JSON.parse(text)
    const key = files[0]!.replace(/\.json$/, '')
    expect(key).toBe(`20261129T223956123456Z-${doc.config_hash}`)
    expect(doc.created_at).toBe(CREATED_AT)

    const keys = Object.keys(doc)
    expect(keys.slice(0, 7)).toEqual(['schema_version', 'digline_version', 'tenant', 'environment', 'suite', 'created_at', 'config_hash'])
    expect(keys.slice(-2)).toEqual(['aggregates', 'results'])
    expect(keys.indexOf('record_responses')).toBeLessThan(keys.indexOf('target_config'))
    expect(keys.indexOf('target_config')).toBeLessThan(keys.indexOf('judge_config'))
    expect(keys.indexOf('artifacts')).toBeLessThan(keys.indexOf('metadata'))
    expect(doc.tenant).toBe('acme')
    expect(doc.environment).toBe('local')
    expect(doc.target_config).toEqual({ model: 'counter-v1' })
    expect(doc.observed.target_model).toBe('counter-v1-2026')

    expect(doc.results.map((r: { case_id: string }) => r.case_id)).toEqual(Array.from({ length: 50 }, (_, i) => 'c' + String(i).padStart(3, '0')))
    const failing = doc.results.filter((r: { verdict: string }) => r.verdict === 'fail').map((r: { case_id: string }) => r.case_id)
    expect(failing).toEqual(['c003', 'c013', 'c023', 'c033', 'c043'])
    const c007 = doc.results.find((r: { case_id: string }) => r.case_id === 'c007')
    expect(c007).toMatchObject({ verdict: 'pass', passed_samples: 2 })
    expect(doc.aggregates).toMatchObject({ cases: 50, passed: 45, failed: 5, errored: 0, pass_rate: 0.9, samples_per_case: 3 })
    expect(doc.aggregates.pass_rate_ci95.low).toBeCloseTo(0.7864, 3)
    expect(doc.aggregates.pass_rate_ci95.high).toBeCloseTo(0.9565, 3)
    // no answers are kept unless recordResponses
    expect(text).not.toContain('"output"')
    expect(text).not.toContain('"input"')
    expect(readFileSync(join(project.dir, 'calls.log'), 'utf8').trim().split('\n')).toHaveLength(150)
    // the announcement and the verdict are printed
    expect(result.stderr).toContain('digline known: 50 of 50 cases × 3 samples = 150 calls to the target')
    expect(result.stdout).toContain('digline known holds')
    expect(result.stdout).toMatch(/fail\s+c003/)
    expect(result.stdout).toContain('digline exit 0')
    // the generated .gitignore
    expect(readFileSync(join(project.dir, '.digline', '.gitignore'), 'utf8')).toBe('*/runs/\n*/removed/\n*/cache/\n.*.tmp\n')
  })

  test('the same launch twice with DIGLINE_CREATED_AT writes byte-identical documents', async () => {
    const a = makeProject({ 'evals/known.eval.ts': countingSuite({ name: 'known', cases: 20, samples: 3, minAgreement: 2 / 3, answer, concurrency: 8 }) })
    const b = makeProject({ 'evals/known.eval.ts': countingSuite({ name: 'known', cases: 20, samples: 3, minAgreement: 2 / 3, answer, concurrency: 1 }) })
    for (const p of [a, b]) expect((await p.vitest([], { DIGLINE_CREATED_AT: CREATED_AT })).code).toBe(0)
    const hash = (p: typeof a) =>
      createHash('sha256')
        .update(readFileSync(join(p.dir, '.digline', 'acme', 'runs', 'known', p.runFiles('acme', 'known')[0]!)))
        .digest('hex')
    expect(hash(a)).toBe(hash(b))
  })

  test('recordResponses keeps answers, inputs and expected values', async () => {
    const project = makeProject({ 'evals/rec.eval.ts': countingSuite({ name: 'rec', cases: 3, extra: 'recordResponses: true,' }) })
    expect((await project.vitest()).code).toBe(0)
    const doc = JSON.parse(project.read(join('.digline', 'acme', 'runs', 'rec', project.runFiles('acme', 'rec')[0]!)))
    expect(doc.record_responses).toBe(true)
    expect(doc.results[1]).toMatchObject({ case_id: 'c001', input: 1, expected: 'ok-1', samples: [{ output: 'ok-1' }] })
  })

  test('a filtered run (-t) calls only the selected cases and writes no document', async () => {
    const project = makeProject({ 'evals/known.eval.ts': countingSuite({ name: 'known', cases: 10 }) })
    const result = await project.vitest(['-t', 'c004'])
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(readFileSync(join(project.dir, 'calls.log'), 'utf8').trim().split('\n')).toEqual(['c004:0'])
    // issue 23 item 15: it says it is filtered, of how many cases, that it is not filed, and it prints its summary
    expect(result.stderr).toContain('digline known: a filtered run of 1 of 10 cases, judged by the thresholds alone and not filed')
    expect(result.stdout).toContain('filtered run: no run document written')
    expect(result.stdout).toMatch(/digline exit 0/)
    expect(project.runFiles('acme', 'known')).toEqual([])
    expect(existsSync(join(project.dir, '.digline', 'acme', 'runs', 'known'))).toBe(false)
  })
})
