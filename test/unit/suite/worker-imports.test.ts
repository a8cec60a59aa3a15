// What a Vitest worker loads before its first call (ADR 0430): a valid suite's definition check and
// its scorers load no zod, neither as ESM (a resolve hook sees it) nor through require (the CommonJS
// cache holds it). zod comes only with a refusal's wording or a judge's reply. One plain `node`.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const dist = fileURLToPath(new URL('../../../dist/', import.meta.url))

// A resolve hook, on its loader thread, that prints each file URL once to stderr.
const HOOK = `data:text/javascript,${encodeURIComponent(
  "const seen = new Set(); export async function resolve(s, c, next) { const r = await next(s, c); if (!seen.has(r.url) && r.url.startsWith('file:')) { seen.add(r.url); process.stderr.write(r.url + '\\n') } return r }",
)}`
const REGISTER = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(HOOK)})`)}`

/** Runs `body` (an ESM script, `d(path)` imports from dist/); `mark(label)` prints where it is and every zod module loaded so far. */
function trace(body: string): string[] {
  const script = [
    `import { createRequire } from 'node:module'`,
    `const cache = createRequire(import.meta.url).cache`,
    `const d = (p) => import(${JSON.stringify(dist)} + p)`,
    `const mark = async (label) => { await new Promise((r) => setTimeout(r, 50)); for (const f of Object.keys(cache)) process.stderr.write('require:' + f + '\\n'); process.stderr.write('mark:' + label + '\\n') }`,
    body,
  ].join('\n')
  const child = spawnSync(process.execPath, ['--import', REGISTER, '--input-type=module', '-e', script], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  expect(child.status, child.stderr).toBe(0)
  return child.stderr.split('\n')
}

const isZod = (line: string) => /\/node_modules\/zod\//.test(line)
const before = (lines: string[], label: string) => lines.slice(0, lines.indexOf(`mark:${label}`))

test("a valid suite's definition, its scorers and its judges' construction load no zod; a refusal does", () => {
  const lines = trace(`
    const { resolveSuites } = await d('src/suite/variants.js')
    const { scorers } = await d('src/scorers/index.js')
    const model = { complete: async () => ({ text: '{}' }), config: { provider: 'test', model: 'm' } }
    const suite = {
      name: 'valid', cases: [{ id: 'a', input: 1, expected: 1, tags: ['smoke'], metadata: { k: 1 } }], target: async (x) => x,
      samples: { min: 1, max: 3 }, thresholds: { passRate: 0.9 }, tolerances: { costPerCase: 0.2 }, prices: { m: { input: 1, output: 2 } },
      scorers: [scorers.exact(), scorers.includes('a'), scorers.llmJudge({ model, rubric: 'r' }), scorers.factuality({ model }), scorers.closedQa({ model })],
    }
    resolveSuites(suite)
    await mark('valid')
    try { resolveSuites({ ...suite, samples: 0 }) } catch (e) { process.stderr.write('refused:' + e.constructor.name + '\\n') }
    await mark('refused')
  `)
  expect(lines).toContain('mark:valid')
  expect(before(lines, 'valid').filter(isZod)).toEqual([])
  expect(lines).toContain('refused:InvalidSuiteError')
  expect(before(lines, 'refused').some(isZod)).toBe(true)
})

// the team store's code beyond its name and errors: a worker on the file store never needs it
const TEAM_STORE = /\/dist\/src\/store\/postgres\/(?!server-name|errors)/

test("a worker's import('digline') loads neither zod nor the team store", () => {
  const lines = trace(`
    await d('plugin/suite-entry.js')
    await mark('imported')
  `)
  const loaded = before(lines, 'imported')
  expect(loaded.some((line) => line.endsWith('/dist/plugin/suite-entry.js'))).toBe(true)
  expect(loaded.filter((line) => isZod(line) || TEAM_STORE.test(line))).toEqual([])
})

test('writing a journal and planning its resume load no zod; a header out of shape does', () => {
  const lines = trace(`
    const { mkdtempSync } = await import('node:fs')
    const { join } = await import('node:path')
    const { tmpdir } = await import('node:os')
    const { FileJournal } = await d('src/store/file/journal.js')
    const { FileResultStore } = await d('src/store/index.js')
    const { leaseOfThisProcess } = await d('src/store/live-writer.js')
    const { decodeLine, encodeLine } = await d('src/store/journal-format.js')
    const root = mkdtempSync(join(tmpdir(), 'digline-zod-'))
    const header = {
      journal_version: 2, created_at: '2026-12-05T07:00:00.000000Z', started_at: '2026-12-05T07:00:00.000000Z', digline_version: '0.1.0',
      tenant: 't', environment: 'local', suite: 's', config_hash: '3f9a0c1b2d4e', cases_digest: 'f'.repeat(64), artifacts: {},
      target_config: { model: 'm' }, judge_config: { scorers: [{ name: 'exact', config: {}, pass_at: 0.5 }] }, record_responses: false,
      git_commit: null, lease: leaseOfThisProcess(), shard: '1/2',
    }
    const journal = await new FileJournal({ root }).openJournal({ ...header, declared: { samples: 1, digests: { a: 'x' } } }, 1)
    const result = { case_id: 'a', verdict: 'pass', score: 1, passed_samples: 1, reason: null, error: null, samples: [{ pass: true, score: 1, scorers: [{ name: 'exact', pass: true, score: 1, reason: null }] }] }
    await journal.append({ result, cause: null, observed: { target_model: 'm', judge_models: { j: 'j-1' } }, index: 0 })
    await journal.close()
    const [pending] = await new FileResultStore({ root }).pending('t', 's')
    process.stderr.write('planned:' + pending.done.size + '\\n')
    await mark('planned')
    const binding = { tenant: 't', suite: 's', key: pending.key }
    const decoded = decodeLine(encodeLine(binding, JSON.stringify({ kind: 'header', journal_version: 2, leg: 0 })).subarray(0, -1), binding)
    process.stderr.write('refused:' + decoded.why + '\\n')
    await mark('refused')
  `)
  expect(lines).toContain('planned:1')
  expect(before(lines, 'planned').filter(isZod)).toEqual([])
  expect(lines.find((line) => line.startsWith('refused:'))).toMatch(/^refused:is not a valid header at /)
  expect(before(lines, 'refused').some(isZod)).toBe(true)
})
